import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppService } from '../../../main/core/app/app-service.ts';
import type { ApiEvent, EventBatch } from '../../../shared/api/events.ts';
import type { Api } from '../../../shared/api/types.ts';
import { pollUntil } from '../../support/poll-until.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';

/** flux-schnell: 300 quota units an image, in the catalogue and on the simulator's ledger. */
const PRICE = 300;

let dir: string;
let opened: TestService;
let service: AppService;
let api: Api;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-spend-'));
  opened = await openTestService(dir);
  ({ service, api } = opened);
});
afterEach(async () => {
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

const DEFAULTS = { model: 'flux-schnell', size: '256x256', response_format: 'b64_json' } as const;
const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ prompt: `a fox ${i + 1}` }));
const lines = (n: number) =>
  Array.from({ length: n }, (_, i) => `a lighthouse ${i + 1}`).join('\n');

/** Every event from now on, kept. */
function record(): { events: ApiEvent[]; stop: () => void } {
  const events: ApiEvent[] = [];
  const stop = service.events.subscribe(null, (batch: EventBatch) => events.push(...batch.events));
  return { events, stop };
}

const charged = () => opened.gateways.reduce((sum, g) => sum + g.ledger.totalCharged(), 0);

describe('the spend confirmation', () => {
  it('keeps a 10,000-job batch over the threshold from starting until the person confirms', async () => {
    const source = { kind: 'text' as const, fileName: 'lighthouses.txt', text: lines(10_000) };
    const defaults = { model: 'gpt-image-1', size: '1024x1024' };
    await api.settings.update({ currency: { code: 'USD', perUnit: 0.000002 } });
    const check = await api.batches.check({ source, defaults });
    expect(check.spend).toMatchObject({
      requests: 10_000,
      images: 10_000,
      units: 40_000_000,
      money: { code: 'USD', amount: expect.closeTo(80, 6) },
      unpriced: [],
      confirm: { needed: true, threshold: { units: 500_000, requests: 500 } },
    });
    expect(check.spend.confirm.reason).toBe(
      'This sends 10,000 requests and spends about 40,000,000 quota units (≈ $80.00): more ' +
        'than 500,000 quota units and more than 500 requests need your confirmation.',
    );

    await expect(api.batches.create({ source, defaults })).rejects.toMatchObject({
      code: 'confirmation-required',
      details: { spend: { units: 40_000_000, requests: 10_000 } },
    });
    // less than the estimate is no confirmation of it
    await expect(
      api.batches.create({
        source,
        defaults,
        confirmedSpend: { units: 400_000, requests: 10_000 },
      }),
    ).rejects.toMatchObject({ code: 'confirmation-required' });
    expect((await api.batches.list({})).items).toEqual([]);

    const confirmed = { units: check.spend.units, requests: check.spend.requests };
    const batch = await api.batches.create({ source, defaults, confirmedSpend: confirmed });
    expect(batch.jobCount).toBe(10_000);
  });

  it('asks for it when a held batch is resumed, for the work it has left', async () => {
    const source = { kind: 'rows' as const, rows: rows(600) };
    const held = await api.batches.create({ source, defaults: DEFAULTS, paused: true });
    await expect(api.batches.resume({ id: held.id })).rejects.toMatchObject({
      code: 'confirmation-required',
      details: { spend: { requests: 600, units: 600 * PRICE } },
    });
    await api.batches.resume({ id: held.id, confirmedSpend: { units: 180_000, requests: 600 } });
    expect((await api.batches.get({ id: held.id })).paused).toBe(false);
  });

  it('follows the threshold in the settings', async () => {
    await api.settings.update({ confirmSpend: { units: 1000, requests: null } });
    const source = { kind: 'rows' as const, rows: rows(4) };
    const check = await api.batches.check({ source, defaults: DEFAULTS });
    expect(check.spend.confirm).toMatchObject({ needed: true, threshold: { units: 1000 } });
    await expect(api.batches.create({ source, defaults: DEFAULTS })).rejects.toMatchObject({
      code: 'confirmation-required',
    });
  });
});

describe('a budget cap through the service', () => {
  it('pauses the queue before the request that would pass it, says so, and goes on when raised or overridden', async () => {
    const cap = 10 * PRICE + 50;
    await api.settings.update({ budget: { perBatch: cap, perDay: null, perGatewayDay: {} } });
    const { events, stop } = record();
    await service.startQueue();
    const batch = await api.batches.create({
      source: { kind: 'rows', rows: rows(30) },
      defaults: DEFAULTS,
      name: 'Foxes',
    });
    await pollUntil(
      () => events.some((e) => e.type === 'queue.paused'),
      'the queue pauses on the cap',
    );
    await service.engine!.whenIdle();
    // the simulator's ledger: nothing charged past the cap
    expect(charged()).toBe(10 * PRICE);
    const paused = events.find((e) => e.type === 'queue.paused')!.payload as {
      kind: string;
      budget: { scope: string; cap: number; spent: number; inFlight: number };
    };
    expect(paused).toMatchObject({
      kind: 'budget',
      code: 'budget-batch',
      budget: { scope: 'batch', key: String(batch.id), label: 'Foxes', cap, cost: PRICE },
    });
    const state = await api.queue.state({});
    // as it stood when it stopped: spent, and admitted but still in flight
    const standing = state.paused?.budget;
    expect(standing!.spent + standing!.inFlight).toBe(10 * PRICE);
    expect(state.progress.spentToday).toMatchObject({ results: 10, units: 10 * PRICE });
    expect((await api.batches.get({ id: batch.id })).spent).toMatchObject({ units: 10 * PRICE });
    const summary = await api.spend.summary({ batchId: batch.id });
    expect(summary).toMatchObject({
      today: { results: 10, units: 3000 },
      models: [{ model: 'flux-schnell', results: 10, units: 3000 }],
      gateways: [{ gateway: 'demo', units: 3000 }],
      batch: { id: batch.id, units: 3000 },
      budget: { gateway: 'demo', perBatch: cap, today: { cap: null, spent: 3000, left: null } },
    });

    // a plain resume would pass the cap at once: refused, saying why
    await expect(api.queue.resume({})).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('the cap of the batch "Foxes"'),
    });

    // raising the cap lifts the pause by itself, up to the new cap
    const resumedBefore = events.filter((e) => e.type === 'queue.resumed').length;
    await api.settings.update({
      budget: { perBatch: 20 * PRICE, perDay: null, perGatewayDay: {} },
    });
    await pollUntil(
      () => events.filter((e) => e.type === 'queue.resumed').length === resumedBefore + 1,
      'the raised cap resumes the queue',
    );
    await pollUntil(
      () => events.filter((e) => e.type === 'queue.paused').length === 2,
      'the queue pauses on the raised cap',
    );
    await service.engine!.whenIdle();
    expect(charged()).toBe(20 * PRICE);

    // "run anyway": this batch's cap no longer stops it
    await api.queue.resume({ overBudget: true });
    expect(await service.engine!.whenIdle()).toBe('done');
    await opened.gateways[0]!.idle();
    expect(charged()).toBe(30 * PRICE);
    expect((await api.batches.get({ id: batch.id })).jobs.succeeded).toBe(30);
    const progress = events.filter((e) => e.type === 'progress').at(-1)!;
    expect(progress.payload.spentToday).toMatchObject({ units: 30 * PRICE });
    stop();
  });

  it("stops at the gateway's day cap across batches", async () => {
    await api.settings.update({
      budget: { perBatch: null, perDay: null, perGatewayDay: { demo: 4 * PRICE } },
    });
    await service.startQueue();
    for (const name of ['one', 'two']) {
      await api.batches.create({
        source: { kind: 'rows', rows: rows(3) },
        defaults: DEFAULTS,
        name,
      });
    }
    await pollUntil(async () => (await api.queue.state({})).paused !== null, 'paused');
    await service.engine!.whenIdle();
    expect(charged()).toBe(4 * PRICE);
    expect((await api.queue.state({})).paused).toMatchObject({
      code: 'budget-gateway-day',
      budget: { scope: 'gateway-day', label: 'demo' },
    });
  });
});
