import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localDate } from '../../../main/core/store/gallery-runs.ts';
import type { Store } from '../../../main/core/store/store.ts';
import { tempStore } from './temp-store.ts';

let store: Store;
let cleanup: () => void;
beforeEach(() => ({ store, cleanup } = tempStore()));
afterEach(() => cleanup());

const DAY_ONE = new Date(2026, 2, 1, 12).getTime();
const DAY_TWO = new Date(2026, 2, 2, 9).getTime();

function batchOf(jobs: Array<{ model: string; n?: number }>, name = 'Spend') {
  return store.batches.create(
    { name, source: null, paused: false, settings: {} },
    jobs.map((job, i) => ({ prompt: `prompt ${i + 1}`, ...job })),
    DAY_ONE,
  );
}

/** Claims every runnable job (the store's claim, as the engine's). */
const claimAll = (now: number) => store.jobs.claimRunnable(1000, now);

describe('the spend triggers', () => {
  beforeEach(() => {
    store.spend.setPrices(
      new Map([
        ['gpt-image-1', 4000],
        ['flux-schnell', 300],
      ]),
    );
    store.spend.setGateway('work');
  });

  it('charge what came back at the price in force, by day, gateway, batch and model', () => {
    const batch = batchOf([{ model: 'gpt-image-1', n: 4 }, { model: 'flux-schnell' }]);
    const [gpt, flux] = claimAll(DAY_ONE);
    // a partial success costs what came back
    store.jobs.succeed(gpt!.id, { returnedN: 3, now: DAY_ONE });
    store.spend.setPrices(new Map([['flux-schnell', 500]]));
    store.jobs.succeed(flux!.id, { returnedN: 1, now: DAY_TWO });
    expect(store.spend.totals({ batchId: batch.id })).toEqual({
      results: 4,
      units: 12_000 + 500,
      unpriced: 0,
      uncertain: 0,
      uncertainUnits: 0,
    });
    expect(store.spend.byDay().map(({ day, units }) => ({ day, units }))).toEqual([
      { day: localDate(DAY_TWO), units: 500 },
      { day: localDate(DAY_ONE), units: 12_000 },
    ]);
    expect(store.spend.byModel().map(({ model, results }) => ({ model, results }))).toEqual([
      { model: 'flux-schnell', results: 1 },
      { model: 'gpt-image-1', results: 3 },
    ]);
    expect(store.spend.totals({ gateway: 'work', toDay: localDate(DAY_ONE) }).units).toBe(12_000);
  });

  it('count what may have been charged apart, and models with no price as unpriced', () => {
    batchOf([{ model: 'gpt-image-1', n: 2 }, { model: 'mystery', n: 3 }, { model: 'gpt-image-1' }]);
    const [uncertain, unpriced, rejected] = claimAll(DAY_ONE);
    store.jobs.fail(uncertain!.id, { kind: 'uncertain', now: DAY_ONE });
    store.jobs.succeed(unpriced!.id, { returnedN: 3, now: DAY_ONE });
    store.jobs.fail(rejected!.id, { kind: 'rejected', now: DAY_ONE });
    expect(store.spend.totals()).toEqual({
      results: 3,
      units: 0,
      unpriced: 3,
      uncertain: 2,
      uncertainUnits: 8000,
    });
    // "retry anyway" that succeeds is charged again: the first may have been charged too
    store.jobs.requeue(uncertain!.id, DAY_TWO, { anyway: true });
    const [again] = claimAll(DAY_TWO);
    store.jobs.succeed(again!.id, { returnedN: 2, now: DAY_TWO });
    expect(store.spend.grandTotal()).toBe(8000 + 8000);
  });

  it("keeps a deleted batch's spend in its day", () => {
    const batch = batchOf([{ model: 'flux-schnell' }]);
    const [job] = claimAll(DAY_ONE);
    store.jobs.succeed(job!.id, { returnedN: 1, now: DAY_ONE });
    store.batches.delete(batch.id);
    expect(store.spend.totals({ fromDay: localDate(DAY_ONE) }).units).toBe(300);
  });

  it('estimates what is in flight from the running jobs', () => {
    const batch = batchOf([{ model: 'gpt-image-1', n: 2 }, { model: 'mystery' }]);
    claimAll(DAY_ONE);
    expect(store.spend.inFlight()).toEqual(new Map([[batch.id, 8000]]));
    const [first] = store.jobs.listRunning();
    expect(store.spend.jobCost(first!.id)).toEqual({ batchId: batch.id, units: 8000 });
  });

  it("follows a renamed gateway's spend", () => {
    batchOf([{ model: 'flux-schnell' }]);
    const [job] = claimAll(DAY_ONE);
    store.jobs.succeed(job!.id, { returnedN: 1, now: DAY_ONE });
    store.spend.renameGateway('work', 'office');
    expect(store.spend.byGateway().map((row) => row.gateway)).toEqual(['office']);
  });
});

describe('a budget pause', () => {
  it('keeps what it stopped before until the queue resumes', () => {
    const detail = { scope: 'day', key: '2026-03-01', cap: 10, spent: 9, inFlight: 0, cost: 4 };
    store.queue.pause('over', 5, 'budget-day', 'budget', detail);
    expect(store.queue.get()).toMatchObject({ pauseKind: 'budget', pauseDetail: detail });
    store.queue.resume();
    expect(store.queue.get().pauseDetail).toBeNull();
  });
});
