import { describe, expect, it } from 'vitest';
import { FinishRate } from '../../../main/core/engine/progress.ts';
import { RATE_WINDOW_MS } from '../../../shared/jobs/rate.ts';

describe('FinishRate', () => {
  it('counts the jobs finished in the shared window, from the start while it is shorter', () => {
    const rate = new FinishRate();
    for (let t = 1_000; t <= 4_000; t += 1_000) rate.record(t);
    // four jobs in the four seconds since the start
    expect(rate.perSecond(4_000, 0)).toBe(1);
    // long after: only what finished within the window counts, over the whole window
    for (let t = 20_000; t < 20_000 + RATE_WINDOW_MS; t += 500) rate.record(t);
    expect(rate.perSecond(20_000 + RATE_WINDOW_MS, 0)).toBe(2);
    expect(rate.perSecond(40_000 + RATE_WINDOW_MS, 0)).toBe(0);
  });
});
