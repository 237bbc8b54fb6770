import { afterEach, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../../shared/gateway/catalogue.ts';
import {
  assertLegalPath,
  engineRig,
  jobsOf,
  ledgerOfJob,
  type EngineRig,
  resumeAfterFix,
} from '../../support/engine-harness.ts';

// Interface section 7: 504/524 are never replayed blindly; parameter errors are never
// retried; auth, permission and balance errors pause the whole queue.

let rig: EngineRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

describe.each(['504', '524'])('%s: outcome uncertain', (status) => {
  it('fails the job as uncertain with its request id, never resends it until "retry anyway"', async () => {
    rig = await engineRig({ gateway: { faults: `${status}@1` } });
    const batch = rig.batch(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    const [job] = jobsOf(rig.store, batch.id);
    const [attempt] = rig.store.attempts.listForJob(job!.id);
    expect(job).toMatchObject({ state: 'failed', failureKind: 'uncertain', tries: 1 });
    expect(attempt).toMatchObject({
      httpStatus: Number(status),
      outcome: 'uncertain',
      decision: 'never-replay',
    });
    expect(attempt!.requestId).toMatch(/^req_/);
    expect(job!.lastRequestId).toBe(attempt!.requestId);
    expect(job!.errorMessage).toContain(attempt!.requestId);
    // the gateway did the work and charged it: exactly one request, never sent again
    expect(rig.gateway.ledger.entries()).toHaveLength(1);
    expect(rig.gateway.ledger.find(attempt!.requestId!)).toMatchObject({ state: 'settled' });

    // "retry failed" leaves it alone
    expect(rig.engine.retryFailed()).toBe(0);
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.get(job!.id)).toMatchObject({
      state: 'failed',
      failureKind: 'uncertain',
    });
    expect(rig.store.attempts.listForJob(job!.id)).toHaveLength(1);
    expect(rig.gateway.ledger.entries()).toHaveLength(1);

    // "retry anyway" resends it and records where the retry came from
    expect(rig.engine.retryFailed({ anyway: true })).toBe(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    expect(rig.store.jobs.get(job!.id)).toMatchObject({ state: 'succeeded', failureKind: null });
    expect(rig.store.attempts.listForJob(job!.id)).toHaveLength(2);
    expect(rig.gateway.ledger.entries()).toHaveLength(2);
    const log = rig.store.jobs.transitionsOf(job!.id);
    expect(log.map((t) => [`${t.from}→${t.to}`, t.reason])).toContainEqual([
      'failed→queued',
      'retry anyway',
    ]);
    assertLegalPath(rig.store, job!.id);
  });
});

describe('a client time-out after the request was sent', () => {
  it('fails the job as uncertain and never resends it', async () => {
    rig = await engineRig({
      gateway: { latencyMs: 3000 },
      profile: { timeouts: { responseMs: 200 } },
    });
    const batch = rig.batch(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    const [job] = jobsOf(rig.store, batch.id);
    expect(job).toMatchObject({ state: 'failed', failureKind: 'uncertain', tries: 1 });
    expect(rig.store.attempts.listForJob(job!.id)).toMatchObject([
      { outcome: 'uncertain', decision: 'never-replay', errorCode: 'response_timeout' },
    ]);
    await rig.gateway.idle();
    expect(rig.gateway.ledger.entries()).toHaveLength(1);
    expect(rig.engine.retryFailed()).toBe(0);
    expect(rig.store.jobs.get(job!.id)!.state).toBe('failed');
  });
});

describe('parameter errors: failed as rejected, never retried', () => {
  it('a field the model refuses (400), an unknown model (404) and a wrong type (422)', async () => {
    // the catalogue is told flux-schnell takes `quality`; the gateway says otherwise
    const catalogue = createCatalogue([
      {
        kind: 'image',
        id: 'flux-schnell',
        protocol: 'openai',
        advanced: true,
        sizes: 'any',
        quality: 'any',
        extra: true,
      },
    ]);
    rig = await engineRig({ catalogue });
    const batch = rig.batch([
      { params: { quality: 'hd' } },
      { model: 'no-such-model' },
      { params: { extra: ['not', 'an', 'object'] } },
      {},
    ]);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    const [quality, unknown, wrongType, fine] = jobsOf(rig.store, batch.id);
    const statusOf = (id: number) => rig!.store.attempts.listForJob(id).map((a) => a.httpStatus);
    expect(quality).toMatchObject({ state: 'failed', failureKind: 'rejected', tries: 1 });
    expect(statusOf(quality!.id)).toEqual([400]);
    expect(quality!.errorCode).toBe('unsupported_parameter');
    expect(unknown).toMatchObject({ state: 'failed', failureKind: 'rejected', tries: 1 });
    expect(statusOf(unknown!.id)).toEqual([404]);
    expect(wrongType).toMatchObject({ state: 'failed', failureKind: 'rejected', tries: 1 });
    expect(statusOf(wrongType!.id)).toEqual([422]);
    expect(fine).toMatchObject({ state: 'succeeded' });
    // refused before billing: one charge in all, for the good job
    expect(rig.gateway.ledger.entries().map((e) => e.state)).toEqual(['settled']);
    for (const job of [quality, unknown, wrongType, fine]) assertLegalPath(rig.store, job!.id);
  });

  it('a request the client refuses itself is failed as rejected without being sent', async () => {
    rig = await engineRig();
    const batch = rig.batch([{ size: '16×16' }]);
    expect(await rig.engine.whenIdle()).toBe('done');
    const [job] = jobsOf(rig.store, batch.id);
    expect(job).toMatchObject({ state: 'failed', failureKind: 'rejected', tries: 1 });
    expect(job!.errorMessage).toContain('×');
    expect(rig.engine.progress().requestsSent).toBe(0);
    await rig.gateway.idle();
    expect(rig.gateway.ledger.entries()).toHaveLength(0);
  });
});

describe('auth, permission and balance pause the whole queue', () => {
  type Case = {
    name: string;
    code: string;
    setup: () => Promise<EngineRig>;
    fix: (rig: EngineRig) => void;
  };
  let apiKey = 'sk-wrong-key-000000000000';
  const cases: Case[] = [
    {
      name: '401 (a wrong key)',
      code: 'invalid_api_key',
      setup: () => {
        apiKey = 'sk-wrong-key-000000000000';
        return engineRig({ apiKey: () => apiKey });
      },
      fix: (r) => {
        apiKey = r.gateway.key;
      },
    },
    {
      name: '403 (a key not allowed this model)',
      code: 'model_not_allowed',
      setup: () =>
        engineRig({ gateway: { keys: [{ key: 'sk-limited-0000', models: ['dall-e-2'] }] } }),
      fix: (r) => {
        r.gateway.keys.get('sk-limited-0000')!.config.models = null;
      },
    },
    {
      name: 'insufficient_user_quota',
      code: 'insufficient_user_quota',
      setup: () => engineRig({ gateway: { balance: 100 } }),
      fix: (r) => {
        r.gateway.ledger.balance = 1e9;
      },
    },
    {
      name: 'pre_consume_token_quota_failed',
      code: 'pre_consume_token_quota_failed',
      setup: () => engineRig({ gateway: { keys: [{ key: 'sk-capped-0000', quotaCap: 100 }] } }),
      fix: (r) => {
        r.gateway.keys.get('sk-capped-0000')!.config.quotaCap = null;
      },
    },
  ];

  it.each(cases)('$name', async ({ code, setup, fix }) => {
    rig = await setup();
    const batch = rig.batch(3);
    expect(await rig.engine.whenIdle()).toBe('paused');
    await rig.gateway.idle();
    const paused = rig.engine.progress().paused;
    expect(paused).toMatchObject({ code });
    expect(paused!.reason.length).toBeGreaterThan(10);
    // handed back, not failed and not consumed: the tries do not count
    for (const job of jobsOf(rig.store, batch.id)) {
      expect(job).toMatchObject({ state: 'queued', tries: 0, failureKind: null });
      const attempts = rig.store.attempts.listForJob(job.id);
      expect(attempts.every((a) => a.outcome === 'pause-queue')).toBe(true);
      expect(assertLegalPath(rig.store, job.id).at(-1)).toBe('running→queued');
    }
    expect(rig.gateway.ledger.totalCharged()).toBe(0);
    // still paused: nothing starts by itself
    expect(await rig.engine.whenIdle()).toBe('paused');

    await resumeAfterFix(rig, fix);
    for (const job of jobsOf(rig.store, batch.id)) {
      expect(job.state).toBe('succeeded');
      expect(ledgerOfJob(rig.store, rig.gateway, job.id).filter((e) => e.charged > 0)).toHaveLength(
        1,
      );
      assertLegalPath(rig.store, job.id);
    }
  });
});
