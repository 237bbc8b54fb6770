import { describe, expect, it } from 'vitest';
import {
  AdaptiveConcurrency,
  RATE_LIMIT_PAUSE_AFTER,
} from '../../../main/core/engine/adaptive-concurrency.ts';

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

  it('follows a change of the setting, up or down, while at its maximum', () => {
    const aimd = new AdaptiveConcurrency({ max: 16 });
    aimd.setMax(4);
    expect(aimd.limit).toBe(4);
    aimd.setMax(8);
    expect(aimd.limit).toBe(8);
    expect(aimd.ceiling).toBe(8);
  });

  it('stays lowered by 429s when the setting is raised, and grows back to the new maximum', () => {
    const aimd = new AdaptiveConcurrency({ max: 8, increaseAfter: 1 });
    aimd.onRateLimited(0);
    expect(aimd.limit).toBe(4);
    aimd.setMax(16);
    expect(aimd.limit).toBe(4);
    for (let i = 0; i < 20; i++) aimd.onSuccess();
    expect(aimd.limit).toBe(16);
    aimd.setMax(2);
    expect(aimd.limit).toBe(2);
  });

  it('halves once per window: refusals of requests sent before a decrease are its burst', () => {
    const aimd = new AdaptiveConcurrency({ max: 8, cooldownMs: 60_000 });
    const firstWindow = aimd.window;
    expect(aimd.onRateLimited(0, firstWindow)).toBe(4);
    // the seven others sent under 8 come back refused too: the same signal
    for (let i = 0; i < 7; i++) expect(aimd.onRateLimited(1, firstWindow)).toBe(4);
    // a request sent under 4 and refused is a new signal, however soon (no cool-down wait)
    expect(aimd.onRateLimited(2, aimd.window)).toBe(2);
    expect(aimd.onRateLimited(3, aimd.window)).toBe(1);
    expect(aimd.rateLimitPersists).toBe(false);
  });

  it('counts refusals in a row at the floor; a success starts the count again', () => {
    const aimd = new AdaptiveConcurrency({ max: 2, pauseAfter: 3 });
    aimd.onRateLimited(0, aimd.window); // 2 → 1: not yet at the floor when refused
    aimd.onRateLimited(1, aimd.window);
    aimd.onRateLimited(2, aimd.window);
    expect(aimd.rateLimitPersists).toBe(false);
    aimd.onSuccess();
    for (let i = 0; i < 2; i++) aimd.onRateLimited(3 + i, aimd.window);
    expect(aimd.rateLimitPersists).toBe(false);
    aimd.onRateLimited(5, aimd.window);
    expect(aimd.rateLimitPersists).toBe(true);
    expect(aimd.limit).toBe(1);
  });

  it('pauses after RATE_LIMIT_PAUSE_AFTER refusals at the floor by default', () => {
    const aimd = new AdaptiveConcurrency({ max: 1 });
    for (let i = 1; i < RATE_LIMIT_PAUSE_AFTER; i++) aimd.onRateLimited(i, aimd.window);
    expect(aimd.rateLimitPersists).toBe(false);
    aimd.onRateLimited(99, aimd.window);
    expect(aimd.rateLimitPersists).toBe(true);
  });

  it('holds the whole pool after a refusal only at the floor', () => {
    const aimd = new AdaptiveConcurrency({ max: 2 });
    aimd.holdAfterRefusal(500);
    expect(aimd.heldUntil).toBe(Number.NEGATIVE_INFINITY);
    aimd.onRateLimited(0, aimd.window);
    aimd.holdAfterRefusal(500);
    aimd.holdAfterRefusal(300); // never shortened
    expect(aimd.heldUntil).toBe(500);
  });
});
