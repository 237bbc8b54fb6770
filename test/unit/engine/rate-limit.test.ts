import { describe, expect, it } from 'vitest';
import { RequestRateLimit } from '../../../main/core/engine/rate-limit.ts';

describe('RequestRateLimit', () => {
  it('allows one second worth at once, then spaces starts evenly', () => {
    const limit = new RequestRateLimit(120, 0);
    expect(limit.available(0)).toBe(2);
    limit.take(2, 0);
    expect(limit.available(0)).toBe(0);
    expect(limit.waitMs(0)).toBe(500);
    expect(limit.available(499)).toBe(0);
    expect(limit.available(500)).toBe(1);
  });

  it('never stores more than its capacity while idle', () => {
    const limit = new RequestRateLimit(60, 0);
    expect(limit.available(3_600_000)).toBe(1);
  });

  it('keeps a low cap: 6 per minute is one every 10 s', () => {
    const limit = new RequestRateLimit(6, 0);
    limit.take(limit.available(0), 0);
    expect(limit.waitMs(0)).toBe(10_000);
  });

  it('refuses a cap that is not positive', () => {
    expect(() => new RequestRateLimit(0, 0)).toThrow(/above 0/);
  });
});
