/** Retry delays: exponential with full jitter, capped, and a server's Retry-After honoured. */
export interface BackoffPolicy {
  /** Delay scale of the first retry. */
  baseMs: number;
  /** No computed delay exceeds this. */
  capMs: number;
  /** Attempts per job, the first one included. */
  maxAttempts: number;
  /** A Retry-After longer than this is clamped: the queue must not sleep for hours. */
  maxRetryAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = {
  baseMs: 500,
  capMs: 30_000,
  maxAttempts: 5,
  maxRetryAfterMs: 120_000,
};

/**
 * Delay before the retry that follows attempt number `attempt` (1-based).
 * Full jitter (AWS Architecture Blog, "Exponential Backoff and Jitter"): uniform in
 * [0, min(cap, base·2^(attempt−1))], which spreads retries of many jobs hitting one limit.
 * A server's Retry-After is a floor: we never come back sooner than asked.
 */
export function retryDelayMs(
  policy: BackoffPolicy,
  attempt: number,
  retryAfterMs: number | null = null,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.floor(random() * ceiling);
  if (retryAfterMs === null) return jittered;
  return Math.max(Math.min(retryAfterMs, policy.maxRetryAfterMs), jittered);
}

/** Whether a job that has made `attempts` attempts may make another. */
export function mayRetry(policy: BackoffPolicy, attempts: number): boolean {
  return attempts < policy.maxAttempts;
}
