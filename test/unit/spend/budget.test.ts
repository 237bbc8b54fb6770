import { describe, expect, it } from 'vitest';
import { budgetPauseReason, capPassed, type CapStanding } from '../../../shared/spend/budget.ts';

const day: CapStanding = {
  scope: 'day',
  key: '2025-03-01',
  label: null,
  cap: 10_000,
  spent: 6_000,
  inFlight: 2_000,
};

describe('capPassed', () => {
  it('stops before the request that would pass a cap, counting what is in flight', () => {
    expect(capPassed([day], 2_000)).toBeNull(); // exactly at the cap: allowed
    expect(capPassed([day], 2_001)).toEqual({ ...day, cost: 2_001 });
  });

  it('names the first cap passed', () => {
    const batch: CapStanding = { ...day, scope: 'batch', key: '7', label: 'Foxes', cap: 5_000 };
    expect(capPassed([batch, day], 3_000)?.scope).toBe('batch');
  });

  it('lets a request of unknown price go', () => {
    expect(capPassed([{ ...day, spent: 50_000 }], 0)).toBeNull();
  });
});

describe('budgetPauseReason', () => {
  it('says the cap, what was spent and the next cost, in units and money', () => {
    const stop = { ...day, scope: 'batch' as const, key: '7', label: 'Foxes', cost: 4_000 };
    expect(budgetPauseReason(stop, (units) => ({ code: 'USD', amount: units * 0.000002 }))).toBe(
      'The next request would pass the cap of the batch "Foxes" of 10,000 quota units ' +
        '(≈ $0.02): 6,000 quota units (≈ $0.012) spent so far (and 2,000 quota units ' +
        '(≈ $0.004) in flight), and it costs about 4,000 quota units (≈ $0.008). Nothing ' +
        'more is sent until the cap is raised or you choose to run anyway.',
    );
  });
});
