/**
 * Resolves once `check` holds, asking again every `intervalMs`; a time-out says what it waited
 * for. The one way tests wait for something to happen, instead of sleeping a guessed time.
 */
export async function pollUntil(
  check: () => boolean | Promise<boolean>,
  what: string,
  { timeoutMs = 15_000, intervalMs = 5 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`Timed out after ${timeoutMs} ms waiting until ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
