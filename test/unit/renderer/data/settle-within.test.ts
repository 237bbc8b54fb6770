import { afterEach, describe, expect, it, vi } from 'vitest';
import { settleWithin } from '../../../../renderer/src/data/settle-within.ts';

afterEach(() => vi.useRealTimers());

describe('settleWithin', () => {
  it('settles with the promise, or at the limit, whichever is first, and never rejects', async () => {
    vi.useFakeTimers();
    let settled = false;
    void settleWithin(new Promise(() => undefined), 150).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(149);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);

    await expect(settleWithin(Promise.reject(new Error('no')), 150)).resolves.toBeUndefined();
    await expect(settleWithin(Promise.resolve(1), 150)).resolves.toBeUndefined();
    // the limit's timer does not outlive an early answer
    expect(vi.getTimerCount()).toBe(0);
  });
});
