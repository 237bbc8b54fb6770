/**
 * Settles when `promise` settles or after `ms`, whichever comes first (never rejects): for a
 * first render or a first screen that waits for data, but never long.
 */
export function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let limit: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((resolve) => (limit = setTimeout(resolve, ms))),
  ]).finally(() => clearTimeout(limit));
}
