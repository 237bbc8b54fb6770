import { afterEach, describe, expect, it } from 'vitest';
import type { BudgetRules } from '../../../main/core/engine/engine.ts';
import { localDate } from '../../../main/core/store/gallery-runs.ts';
import { engineRig, type EngineRig } from '../../support/engine-harness.ts';

/** flux-schnell costs 300 units an image, on the simulator's ledger as in the catalogue. */
const PRICE = 300;

let rig: EngineRig;
afterEach(() => rig?.close());

const rules = (caps: Partial<BudgetRules['caps']>): BudgetRules => ({
  caps: { run: null, perBatch: null, perDay: null, gatewayDay: null, ...caps },
  gateway: 'demo',
  currency: null,
});

async function budgetRig(caps: Partial<BudgetRules['caps']>, gateway = {}) {
  rig = await engineRig({ start: false, gateway, engine: { budget: rules(caps) } });
  rig.store.spend.setPrices(new Map([['flux-schnell', PRICE]]));
  rig.store.spend.setGateway('demo');
  await rig.engine.start();
  return rig;
}

const charged = () => rig.gateway.ledger.totalCharged();

describe('a budget cap', () => {
  it('pauses the queue before the request that would pass it: nothing charged past it', async () => {
    await budgetRig({ perBatch: 10 * PRICE + 100 });
    const paused: string[] = [];
    rig.engine.on('paused', (pause) => paused.push(pause.kind));
    const batch = rig.batch(30);
    rig.engine.wake();
    expect(await rig.engine.whenIdle()).toBe('paused');
    await rig.gateway.idle();
    // with four requests in flight at a time, each admitted one counted before it left
    expect(charged()).toBe(10 * PRICE);
    expect(rig.store.jobs.counts(batch.id)).toMatchObject({ succeeded: 10, queued: 20 });
    expect(paused).toEqual(['budget']);
    const queue = rig.store.queue.get();
    expect(queue).toMatchObject({ pauseKind: 'budget', pauseCode: 'budget-batch' });
    // what was spent and what was in flight when it stopped: the ten admitted
    const detail = queue.pauseDetail as { spent: number; inFlight: number };
    expect(detail).toMatchObject({
      scope: 'batch',
      key: String(batch.id),
      label: batch.name,
      cap: 3100,
      cost: PRICE,
    });
    expect(detail.spent + detail.inFlight).toBe(10 * PRICE);
    expect(queue.pauseReason).toMatch(
      new RegExp(
        `^The next request would pass the cap of the batch "${batch.name}" of 3,100 quota ` +
          'units: [\\d,]+ quota units spent so far( \\(and [\\d,]+ quota units in flight\\))?, and ' +
          'it costs about 300 quota units\\. Nothing more is sent until the cap is raised or ' +
          'you choose to run anyway\\.$',
      ),
    );
  });

  it('counts every batch of the day, and n images a request', async () => {
    await budgetRig({ perDay: 5 * PRICE });
    const first = rig.batch(2);
    const second = rig.batch([{ n: 2 }, { n: 2 }, { n: 2 }]);
    rig.engine.wake();
    expect(await rig.engine.whenIdle()).toBe('paused');
    await rig.gateway.idle();
    expect(charged()).toBe(4 * PRICE);
    expect(
      rig.store.jobs.counts(first.id).succeeded + rig.store.jobs.counts(second.id).succeeded,
    ).toBe(3);
    expect(rig.store.spend.totals({ fromDay: localDate(Date.now()) }).units).toBe(4 * PRICE);
    expect(rig.store.queue.get().pauseCode).toBe('budget-day');
  });

  it('counts what may have been charged (a 504) as spent', async () => {
    await budgetRig({ run: 3 * PRICE }, { faults: '504@1' });
    rig.batch(5);
    rig.engine.wake();
    expect(await rig.engine.whenIdle()).toBe('paused');
    await rig.gateway.idle();
    // the 504's work was charged: it is one of the three the cap allows
    expect(charged()).toBe(3 * PRICE);
    expect(rig.store.spend.totals()).toMatchObject({ units: 2 * PRICE, uncertainUnits: PRICE });
  });

  it('lets requests of unknown price go', async () => {
    await budgetRig({ perBatch: 1 });
    rig.store.spend.setPrices(new Map());
    const batch = rig.batch(3);
    rig.engine.wake();
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.counts(batch.id).succeeded).toBe(3);
    expect(rig.store.spend.totals()).toMatchObject({ results: 3, unpriced: 3, units: 0 });
  });

  it('goes on once the cap is raised, or past it once the person runs anyway', async () => {
    await budgetRig({ perBatch: 2 * PRICE });
    const batch = rig.batch(6);
    rig.engine.wake();
    expect(await rig.engine.whenIdle()).toBe('paused');
    const stop = rig.store.queue.get().pauseDetail as Parameters<
      typeof rig.engine.budgetStillStops
    >[0];
    expect(rig.engine.budgetStillStops(stop)).toBe(true);

    rig.engine.setBudget(rules({ perBatch: 4 * PRICE }));
    expect(rig.engine.budgetStillStops(stop)).toBe(false);
    rig.engine.resume();
    expect(await rig.engine.whenIdle()).toBe('paused');
    await rig.gateway.idle();
    expect(charged()).toBe(4 * PRICE);

    // "run anyway": this batch's cap no longer stops it, the day's still would
    rig.store.spend.addOverride('batch', String(batch.id), Date.now());
    rig.engine.resume();
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    expect(charged()).toBe(6 * PRICE);
  });
});
