import { describe, expect, it } from 'vitest';
import { AdaptiveConcurrency } from '../../../main/core/engine/adaptive-concurrency.ts';

describe('AdaptiveConcurrency (AIMD)', () => {
  it('starts at the maximum and halves on a rate limit', () => {
    const aimd = new AdaptiveConcurrency({ max: 32, cooldownMs: 0 });
    expect(aimd.limit).toBe(32);
    expect(aimd.onRateLimited(1)).toBe(16);
    expect(aimd.onRateLimited(2)).toBe(8);
  });

  it('treats a burst of 429s within the cool-down as one signal', () => {
    const aimd = new AdaptiveConcurrency({ max: 32, cooldownMs: 1000 });
    aimd.onRateLimited(10_000);
    aimd.onRateLimited(10_100);
    aimd.onRateLimited(10_900);
    expect(aimd.limit).toBe(16);
    expect(aimd.onRateLimited(11_001)).toBe(8);
  });

  it('never goes below the minimum', () => {
    const aimd = new AdaptiveConcurrency({ max: 4, min: 2, cooldownMs: 0 });
    for (let i = 0; i < 10; i++) aimd.onRateLimited(i);
    expect(aimd.limit).toBe(2);
  });

  it('grows back by one after each run of successes, up to the maximum', () => {
    const aimd = new AdaptiveConcurrency({ max: 10, increaseAfter: 3, cooldownMs: 0 });
    aimd.onRateLimited(0);
    expect(aimd.limit).toBe(5);
    const seen = Array.from({ length: 18 }, () => aimd.onSuccess());
    expect(seen.slice(0, 6)).toEqual([5, 5, 6, 6, 6, 7]);
    expect(aimd.limit).toBe(10);
    expect(aimd.onSuccess()).toBe(10);
  });

  it('a rate limit resets the success streak', () => {
    const aimd = new AdaptiveConcurrency({ max: 10, increaseAfter: 2, cooldownMs: 0 });
    aimd.onRateLimited(0);
    aimd.onSuccess();
    aimd.onRateLimited(1);
    expect(aimd.limit).toBe(2);
    expect(aimd.onSuccess()).toBe(2);
    expect(aimd.onSuccess()).toBe(3);
  });

  it('follows a change of the setting', () => {
    const aimd = new AdaptiveConcurrency({ max: 16 });
    aimd.setMax(4);
    expect(aimd.limit).toBe(4);
    aimd.setMax(8);
    expect(aimd.limit).toBe(4);
  });
});
