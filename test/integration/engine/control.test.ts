import { afterEach, describe, expect, it } from 'vitest';
import { Engine, EngineBusyError } from '../../../main/core/engine/engine.ts';
import { IllegalTransitionError } from '../../../shared/jobs/states.ts';
import {
  assertLegalPath,
  engineRig,
  jobsOf,
  type EngineRig,
} from '../../support/engine-harness.ts';
import { pollUntil } from '../../support/poll-until.ts';

// Cancel, pause, resume and reorder, on a running engine; and the state machine's refusals.

let rig: EngineRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

describe('cancel', () => {
  it('aborts an in-flight request: the job is canceled and the gateway never delivers', async () => {
    rig = await engineRig({ gateway: { latencyMs: 2000 } });
    const batch = rig.batch(1);
    const [job] = jobsOf(rig.store, batch.id);
    // the request reached the gateway (pre-deducted) and waits on its 2 s of work
    await pollUntil(
      () => rig!.gateway.ledger.entries().length === 1,
      'the request is at the gateway',
    );
    expect(rig.engine.progress().inFlight).toBe(1);
    rig.engine.cancelJob(job!.id);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    // the abort reached the gateway before its work was done: refunded, not delivered
    expect(rig.gateway.ledger.entries()[0]).toMatchObject({ state: 'refunded', charged: 0 });
    expect(rig.store.jobs.get(job!.id)).toMatchObject({ state: 'canceled' });
    expect(rig.store.attempts.listForJob(job!.id).map((a) => a.outcome)).toEqual(['canceled']);
    expect(rig.store.images.listForJob(job!.id)).toEqual([]);
    expect(assertLegalPath(rig.store, job!.id)).toEqual(['queued→running', 'running→canceled']);
  });

  it('cancelBatch cancels the waiting jobs and aborts the running one', async () => {
    rig = await engineRig({ gateway: { latencyMs: 2000 }, engine: { concurrency: 1 } });
    const batch = rig.batch(5);
    await pollUntil(() => rig!.gateway.ledger.entries().length === 1, 'one request is in flight');
    expect(rig.engine.cancelBatch(batch.id)).toBe(4);
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.counts(batch.id)).toMatchObject({ canceled: 5, running: 0, queued: 0 });
    await rig.gateway.idle();
    expect(rig.gateway.ledger.entries()).toHaveLength(1);
    expect(rig.gateway.ledger.totalCharged()).toBe(0);
    for (const job of jobsOf(rig.store, batch.id)) assertLegalPath(rig.store, job.id);
  });

  it('cancels a job waiting for its next attempt: no request is sent for it again', async () => {
    rig = await engineRig({
      gateway: { faults: '503:1' },
      // the next attempt is a minute away (no jitter towards zero)
      engine: { backoff: { baseMs: 60_000, capMs: 60_000 }, random: () => 0.99 },
    });
    const batch = rig.batch(1);
    const [job] = jobsOf(rig.store, batch.id);
    await pollUntil(() => rig!.store.jobs.get(job!.id)!.state === 'retrying', 'the job waits');
    const sent = rig.engine.progress().requestsSent;
    rig.engine.cancelJob(job!.id);
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.get(job!.id)).toMatchObject({ state: 'canceled', nextAttemptAt: null });
    expect(rig.engine.progress().requestsSent).toBe(sent);
    expect(assertLegalPath(rig.store, job!.id)).toEqual([
      'queued→running',
      'running→retrying',
      'retrying→canceled',
    ]);
  });

  it('a canceled job can be queued again by "retry"', async () => {
    rig = await engineRig();
    rig.engine.pause();
    const batch = rig.batch(1);
    const [job] = jobsOf(rig.store, batch.id);
    rig.engine.cancelJob(job!.id);
    rig.store.jobs.requeue(job!.id, Date.now());
    rig.engine.resume();
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(assertLegalPath(rig.store, job!.id)).toEqual([
      'queued→canceled',
      'canceled→queued',
      'queued→running',
      'running→succeeded',
    ]);
  });
});

describe('pause and resume', () => {
  it('a paused queue starts nothing until resumed, and says why', async () => {
    rig = await engineRig();
    rig.engine.pause('Lunch.');
    const batch = rig.batch(3);
    expect(await rig.engine.whenIdle()).toBe('paused');
    expect(rig.engine.progress().paused).toEqual({
      reason: 'Lunch.',
      code: 'manual',
      kind: 'manual',
    });
    expect(rig.store.jobs.counts(batch.id).queued).toBe(3);
    expect(rig.engine.progress().requestsSent).toBe(0);
    rig.engine.resume();
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.counts(batch.id).succeeded).toBe(3);
  });

  it('a paused batch waits while the others run, then runs when resumed', async () => {
    rig = await engineRig();
    rig.engine.pause();
    const held = rig.batch(2);
    const other = rig.batch(2);
    rig.engine.pauseBatch(held.id, true);
    rig.engine.resume();
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.counts(other.id).succeeded).toBe(2);
    expect(rig.store.jobs.counts(held.id).queued).toBe(2);
    rig.engine.pauseBatch(held.id, false);
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.counts(held.id).succeeded).toBe(2);
  });
});

describe('hold a job', () => {
  it('a held job waits while the rest run, one in flight finishes, and it runs once released', async () => {
    rig = await engineRig({ gateway: { latencyMs: 300 }, engine: { concurrency: 1 } });
    const batch = rig.batch(3);
    const [first, second, third] = jobsOf(rig.store, batch.id);
    await pollUntil(() => rig!.gateway.ledger.entries().length === 1, 'the first request is sent');
    rig.engine.pauseJobs([first!.id, third!.id], true);
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.get(first!.id)).toMatchObject({ state: 'succeeded' });
    expect(rig.store.jobs.get(second!.id)).toMatchObject({ state: 'succeeded' });
    expect(rig.store.jobs.get(third!.id)).toMatchObject({ state: 'queued', paused: true });
    expect(rig.store.attempts.listForJob(third!.id)).toEqual([]);
    rig.engine.pauseJobs([third!.id], false);
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.counts(batch.id)).toMatchObject({ succeeded: 3 });
  });

  it('a held job due for a retry is not sent; queued again after a cancel, it goes', async () => {
    // the engine's clock: the retry's due time passes when the test says, not after a sleep
    let now = Date.now();
    rig = await engineRig({
      gateway: { faults: '503@1' }, // the first request only
      // the retry falls due 0.4 s later (no jitter towards zero)
      engine: { backoff: { baseMs: 400, capMs: 400 }, random: () => 0.99, now: () => now },
    });
    rig.engine.pause();
    const batch = rig.batch(1);
    const [job] = jobsOf(rig.store, batch.id);
    rig.engine.resume();
    await pollUntil(() => rig!.store.jobs.get(job!.id)!.state === 'retrying', 'the job waits');
    rig.engine.pauseJobs([job!.id], true);
    expect(await rig.engine.whenIdle()).toBe('done');
    now += 600; // past its due time
    expect(await rig.engine.whenIdle()).toBe('done'); // a claim ran, and skipped it
    expect(rig.store.jobs.get(job!.id)).toMatchObject({ state: 'retrying', paused: true });
    expect(rig.store.attempts.listForJob(job!.id)).toHaveLength(1);
    rig.engine.cancelJob(job!.id);
    rig.store.jobs.requeue(job!.id, Date.now());
    rig.engine.resume();
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.get(job!.id)).toMatchObject({ state: 'succeeded', paused: false });
  });

  it('refuses an id that names no job, and changes none of the others', async () => {
    rig = await engineRig();
    rig.engine.pause();
    const batch = rig.batch(2);
    const [job] = jobsOf(rig.store, batch.id);
    expect(() => rig!.engine.pauseJobs([job!.id, 999_999], true)).toThrow(
      'Job 999999 does not exist',
    );
    expect(rig.store.jobs.get(job!.id)).toMatchObject({ paused: false });
    expect(() => rig!.engine.setPriority([999_999], 3)).toThrow('Job 999999 does not exist');
  });
});

describe('cancel the queue', () => {
  it("cancelAll cancels every batch's waiting jobs and aborts the one in flight", async () => {
    rig = await engineRig({ gateway: { latencyMs: 2000 }, engine: { concurrency: 1 } });
    const one = rig.batch(3);
    const two = rig.batch(2);
    await pollUntil(() => rig!.gateway.ledger.entries().length === 1, 'one request is in flight');
    expect(rig.engine.cancelAll()).toBe(4);
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.counts(one.id)).toMatchObject({ canceled: 3, running: 0, queued: 0 });
    expect(rig.store.jobs.counts(two.id)).toMatchObject({ canceled: 2, running: 0, queued: 0 });
    await rig.gateway.idle();
    expect(rig.gateway.ledger.entries()).toHaveLength(1);
    expect(rig.gateway.ledger.totalCharged()).toBe(0);
  });
});

describe('stop and restart', () => {
  it('a pause outlives the engine: a new one stays paused until resumed', async () => {
    rig = await engineRig();
    rig.engine.pause('Not now.');
    const batch = rig.batch(2);
    await rig.engine.stop();
    const next = rig.newEngine();
    await next.start();
    expect(await next.whenIdle()).toBe('paused');
    expect(next.progress().paused).toEqual({ reason: 'Not now.', code: 'manual', kind: 'manual' });
    next.resume();
    expect(await next.whenIdle()).toBe('done');
    expect(rig.store.jobs.counts(batch.id).succeeded).toBe(2);
  });

  it('a second engine on the same data folder is refused while the first runs', async () => {
    rig = await engineRig();
    const second = new Engine({ store: rig.store, client: rig.client, libraryDir: rig.libraryDir });
    await expect(second.start()).rejects.toThrow(EngineBusyError);
  });

  it('stop({abort}) cuts the request in flight: uncertain, as after a crash; nothing left running', async () => {
    rig = await engineRig({ gateway: { latencyMs: 2000 } });
    const batch = rig.batch(1);
    const [job] = jobsOf(rig.store, batch.id);
    await pollUntil(
      () => rig!.gateway.ledger.entries().length === 1,
      'the request is at the gateway',
    );
    await rig.engine.stop({ abort: true });
    expect(rig.engine.progress().inFlight).toBe(0);
    // the request had left: it may have been charged, so only "retry anyway" resends it
    expect(rig.store.jobs.get(job!.id)).toMatchObject({
      state: 'failed',
      failureKind: 'uncertain',
    });
    expect(rig.store.jobs.listRunning()).toEqual([]);
    expect(rig.store.queue.runner()).toBeNull();
    await rig.gateway.idle();
    expect(rig.gateway.ledger.totalCharged()).toBe(0);
  });
});

describe('after stop', () => {
  it('nothing reads the store once stop() resolved, so the caller may close it', async () => {
    rig = await engineRig({ gateway: { latencyMs: 2000 }, engine: { progressIntervalMs: 1 } });
    rig.batch(2);
    await pollUntil(() => rig!.gateway.ledger.entries().length === 2, 'two requests in flight');
    await rig.engine.stop({ abort: true });
    rig.store.close();
    // late wake-ups (a finishing task's pump, a progress timer) must find nothing to do
    expect(await rig.engine.whenIdle()).toBe('stopped');
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await rig.engine.whenIdle()).toBe('stopped');
  });
});

describe('requests-per-minute cap', () => {
  it('starts one second of requests at once, then spaces the rest', async () => {
    rig = await engineRig({ start: false, engine: { concurrency: 20, requestsPerMinute: 600 } });
    const batch = rig.batch(12);
    await rig.engine.start();
    expect(await rig.engine.whenIdle()).toBe('done');
    const starts = jobsOf(rig.store, batch.id)
      .map((job) => rig!.store.attempts.listForJob(job.id)[0]!.startedAt)
      .sort((a, b) => a - b);
    expect(starts).toHaveLength(12);
    // 600 a minute: ten at once, then one per 100 ms, never sooner
    expect(starts[9]).toBe(starts[0]); // claimed together, in one commit
    expect(starts[10]! - starts[0]!).toBeGreaterThanOrEqual(100);
    expect(starts[11]! - starts[0]!).toBeGreaterThanOrEqual(200);
  });
});

describe('priority', () => {
  it('setPriority changes the order jobs are claimed in', async () => {
    rig = await engineRig({ engine: { concurrency: 1 } });
    rig.engine.pause();
    const batch = rig.batch(5);
    const jobs = jobsOf(rig.store, batch.id);
    rig.engine.setPriority([jobs[3]!.id], 10);
    rig.engine.setPriority([jobs[4]!.id], 5);
    rig.engine.resume();
    expect(await rig.engine.whenIdle()).toBe('done');
    const claimedOrder = jobs
      .map((job) => ({ id: job.id, at: rig!.store.attempts.listForJob(job.id)[0]!.id }))
      .sort((a, b) => a.at - b.at)
      .map((entry) => entry.id);
    expect(claimedOrder).toEqual([jobs[3], jobs[4], jobs[0], jobs[1], jobs[2]].map((j) => j!.id));
  });
});

describe('batch priority', () => {
  it("setBatchPriority puts a later batch's jobs before an earlier one's", async () => {
    rig = await engineRig({ engine: { concurrency: 1 } });
    rig.engine.pause();
    const first = rig.batch(2);
    const second = rig.batch(2);
    rig.engine.setBatchPriority(second.id, 1);
    rig.engine.resume();
    expect(await rig.engine.whenIdle()).toBe('done');
    const firstAttempt = (batchId: number) =>
      Math.min(
        ...jobsOf(rig!.store, batchId).map((j) => rig!.store.attempts.listForJob(j.id)[0]!.id),
      );
    const lastAttempt = (batchId: number) =>
      Math.max(
        ...jobsOf(rig!.store, batchId).map((j) => rig!.store.attempts.listForJob(j.id)[0]!.id),
      );
    expect(lastAttempt(second.id)).toBeLessThan(firstAttempt(first.id));
  });
});

describe('the state machine', () => {
  it('refuses illegal transitions, in the repository and in the database itself', async () => {
    rig = await engineRig({ start: false });
    const batch = rig.batch(1);
    const [job] = jobsOf(rig.store, batch.id);
    const now = Date.now();
    expect(() => rig!.store.jobs.succeed(job!.id, { returnedN: 1, now })).toThrow(
      IllegalTransitionError,
    );
    expect(() => rig!.store.jobs.fail(job!.id, { kind: 'internal', now })).toThrow(
      IllegalTransitionError,
    );
    expect(() => rig!.store.jobs.scheduleRetry(job!.id, { nextAttemptAt: now, now })).toThrow(
      IllegalTransitionError,
    );
    // a raw write that skips the repository is refused by the database's own guard
    expect(() =>
      rig!.store.db.prepare(`UPDATE jobs SET state = 'succeeded' WHERE id = ?`).run(job!.id),
    ).toThrow();
    expect(rig.store.jobs.get(job!.id)!.state).toBe('queued');
    expect(rig.store.jobs.transitionsOf(job!.id)).toEqual([]);

    await rig.engine.start();
    expect(await rig.engine.whenIdle()).toBe('done');
    // final: a succeeded job goes nowhere
    expect(() => rig!.store.jobs.cancel(job!.id, Date.now())).toThrow(IllegalTransitionError);
    expect(() => rig!.store.jobs.requeue(job!.id, Date.now())).toThrow(IllegalTransitionError);
    expect(assertLegalPath(rig.store, job!.id)).toEqual(['queued→running', 'running→succeeded']);
  });
});
