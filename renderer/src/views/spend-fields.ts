/**
 * Amounts of quota units as a person types them in Settings: "10,000", "2 500", or empty for
 * none (no cap, never asked).
 */

/** The amount typed, null for empty, or undefined when it is not an amount. */
export function parseAmount(text: string): number | null | undefined {
  const bare = text.replace(/[,\s_]/g, '');
  if (bare === '') return null;
  const value = Number(bare);
  return Number.isFinite(value) && value >= 0 && value <= 1e15 ? value : undefined;
}

/** What is wrong with an amount as typed, or null. */
export function amountProblem(text: string, whole = false): string | null {
  const value = parseAmount(text);
  if (value === undefined) return 'A number, as 10,000; or empty for none.';
  if (whole && value !== null && (!Number.isInteger(value) || value < 1)) {
    return 'A whole number above 0; or empty for none.';
  }
  return null;
}

/** A saved amount as the field shows it: grouped, empty for none. */
export function amountText(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : value.toLocaleString('en-US');
}
