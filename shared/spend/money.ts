/**
 * Spend as a person reads it: quota units grouped by thousands, money in its currency with
 * enough significant digits that a small amount is never shown as nothing ("$0.00" for a
 * batch that costs $0.002 would hide a real charge).
 */

export interface Money {
  /** An ISO 4217 code (USD) or any short label the person chose ("credits"). */
  code: string;
  amount: number;
}

/** Quota units: whole and grouped from 100 up, with up to two decimals below. */
export function formatUnits(units: number): string {
  if (units > 0 && units < 0.005) return '< 0.01';
  return units.toLocaleString('en-US', { maximumFractionDigits: units < 100 ? 2 : 0 });
}

/**
 * How many decimals an amount needs: two from one unit of the currency up; below that, enough
 * for two significant digits (0.012 → 3, 0.0021 → 4), so it never rounds to nothing.
 */
export function moneyDecimals(amount: number): number {
  const size = Math.abs(amount);
  if (size === 0 || size >= 1) return 2;
  return Math.min(20, Math.ceil(-Math.log10(size)) + 1);
}

/** Money in its currency ($80.00, $0.002, €1,234.50), or the amount and the code. */
export function formatMoney(money: Money): string {
  const decimals = moneyDecimals(money.amount);
  const digits = { minimumFractionDigits: 2, maximumFractionDigits: decimals };
  try {
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: money.code,
      ...digits,
    }).format(money.amount);
  } catch {
    return `${money.amount.toLocaleString('en-US', digits)} ${money.code}`;
  }
}

/** Units and, where a currency is set, money: "40,000 quota units (≈ $0.08)". */
export function formatSpend(units: number, money: Money | null): string {
  const text = `${formatUnits(units)} quota unit${units === 1 ? '' : 's'}`;
  return money ? `${text} (≈ ${formatMoney(money)})` : text;
}
