import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKOFF, mayRetry, retryDelayMs } from '../../../main/core/engine/backoff.ts';

const policy = {
  ...DEFAULT_BACKOFF,
  baseMs: 100,
  capMs: 1000,
  maxAttempts: 3,
  maxRetryAfterMs: 5000,
};

describe('retryDelayMs', () => {
  it.each([
    [1, 100],
    [2, 200],
    [3, 400],
    [4, 800],
    [5, 1000],
    [30, 1000],
  ])('after attempt %i the ceiling is %i ms (full jitter spans 0 to it)', (attempt, ceiling) => {
    expect(retryDelayMs(policy, attempt, null, () => 0)).toBe(0);
    expect(retryDelayMs(policy, attempt, null, () => 0.999999)).toBe(ceiling - 1);
    expect(retryDelayMs(policy, attempt, null, () => 0.5)).toBe(Math.floor(ceiling / 2));
  });

  it('never comes back sooner than Retry-After asks', () => {
    expect(retryDelayMs(policy, 1, 3000, () => 0.5)).toBe(3000);
  });

  it('keeps the jittered delay when it is longer than Retry-After', () => {
    expect(retryDelayMs(policy, 5, 10, () => 0.9)).toBe(900);
  });

  it('clamps an excessive Retry-After', () => {
    expect(retryDelayMs(policy, 1, 3_600_000, () => 0)).toBe(5000);
  });
});

describe('mayRetry', () => {
  it('allows attempts up to the maximum, the first one included', () => {
    expect([1, 2, 3].map((n) => mayRetry(policy, n))).toEqual([true, true, false]);
  });
});
