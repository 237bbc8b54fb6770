import { afterEach, describe, expect, it } from 'vitest';
import type { EngineLimits } from '../../../main/core/engine/engine.ts';
import { engineRig, type EngineRig } from '../../support/engine-harness.ts';
import { pollUntil } from '../../support/poll-until.ts';

// Limits changed while a batch runs: they apply at once, without a restart.

let rig: EngineRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

/** Requests the gateway is working on now (pre-deducted, not yet settled). */
const atGateway = (rig: EngineRig) =>
  rig.gateway.ledger.entries().filter((entry) => entry.state === 'pending').length;

describe('concurrency while running', () => {
  it('lowered: the requests in flight finish, then no more than the new cap run; raised: more start', async () => {
    rig = await engineRig({ start: false, gateway: { latencyMs: 40 }, engine: { concurrency: 4 } });
    const { engine, store } = rig;
    const batch = rig.batch(40);
    const heard: EngineLimits[] = [];
    engine.on('limits', (limits) => heard.push(limits));
    await engine.start();
    await pollUntil(() => atGateway(rig!) === 4, 'four requests at the gateway');

    expect(engine.setLimits({ concurrency: 1 })).toEqual({
      concurrency: 1,
      current: 1,
      requestsPerMinute: null,
    });
    // (their outcomes committed: one job at most runs now)
    await pollUntil(() => store.jobs.counts(batch.id).running <= 1, 'the four in flight finished');
    const succeeded = () => store.jobs.counts(batch.id).succeeded;
    const before = succeeded();
    let most = 0;
    await pollUntil(() => {
      most = Math.max(most, atGateway(rig!));
      return succeeded() >= before + 3;
    }, 'three more finished');
    expect(most).toBe(1);

    engine.setLimits({ concurrency: 6 });
    expect(engine.limits()).toEqual({ concurrency: 6, current: 6, requestsPerMinute: null });
    most = 0;
    await pollUntil(() => {
      most = Math.max(most, atGateway(rig!));
      return most === 6;
    }, 'six requests at the gateway');
    expect(await engine.whenIdle()).toBe('done');
    expect(store.jobs.counts(batch.id)).toMatchObject({ succeeded: 40 });
    expect(heard).toEqual([
      { concurrency: 1, current: 1, requestsPerMinute: null },
      { concurrency: 6, current: 6, requestsPerMinute: null },
    ]);
  });

  it('refuses a concurrency that is no whole number of at least 1, changing nothing', async () => {
    rig = await engineRig({ engine: { concurrency: 4, requestsPerMinute: 120 } });
    const { engine } = rig;
    for (const concurrency of [0, -1, 2.5, Number.NaN]) {
      expect(() => engine.setLimits({ concurrency })).toThrow(/whole number of at least 1/);
    }
    expect(() => engine.setLimits({ concurrency: 2, requestsPerMinute: 0 })).toThrow(
      /must be above 0/,
    );
    expect(engine.limits()).toEqual({ concurrency: 4, current: 4, requestsPerMinute: 120 });
  });
});

describe('the requests-per-minute cap while running', () => {
  it('a cap set while a batch runs holds back the starts by the clock; null removes it', async () => {
    // the engine's clock stands still unless the test moves it: the cap's allowance with it
    let clock = Date.now();
    rig = await engineRig({
      start: false,
      gateway: { latencyMs: 50 },
      engine: { concurrency: 4, now: () => clock },
    });
    const { engine, store } = rig;
    const batch = rig.batch(20);
    await engine.start();
    await pollUntil(() => atGateway(rig!) === 4, 'four requests at the gateway');
    // 60 a minute: one may start at once, then one a second
    expect(engine.setLimits({ requestsPerMinute: 60 })).toMatchObject({ requestsPerMinute: 60 });
    const started = () => 20 - store.jobs.counts(batch.id).queued;
    const atCap = started();
    expect(atCap).toBeLessThan(18);
    const settled = () => {
      const counts = store.jobs.counts(batch.id);
      return counts.running === 0 && counts.succeeded === started();
    };
    await pollUntil(settled, 'the requests started finished');
    engine.flushWrites();
    expect(started()).toBe(atCap + 1);

    clock += 1000; // a second later: one more
    engine.wake();
    await pollUntil(() => started() > atCap + 1, 'one more started');
    await pollUntil(settled, 'it finished');
    engine.flushWrites();
    expect(started()).toBe(atCap + 2);

    expect(engine.setLimits({ requestsPerMinute: null })).toMatchObject({
      requestsPerMinute: null,
    });
    expect(await engine.whenIdle()).toBe('done');
    expect(store.jobs.counts(batch.id)).toMatchObject({ succeeded: 20 });
  });
});
