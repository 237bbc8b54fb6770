import { afterEach, describe, expect, it } from 'vitest';
import {
  assertLegalPath,
  engineRig,
  jobsOf,
  ledgerOfJob,
  resumeAfterFix,
  type EngineRig,
  type RigOptions,
} from '../../support/engine-harness.ts';
import { RATE_LIMIT_PAUSE_AFTER } from '../../../main/core/engine/adaptive-concurrency.ts';

// Interface section 7: 429, 5xx, dropped connections and empty answers are retried; only a
// delivered result is charged, once.

let rig: EngineRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

async function run(options: RigOptions, jobs: number) {
  rig = await engineRig(options);
  const batch = rig.batch(jobs);
  const idle = await rig.engine.whenIdle();
  await rig.gateway.idle();
  return { rig, batch, idle, jobs: jobsOf(rig.store, batch.id) };
}

describe('429 rate limiting', () => {
  it('waits at least Retry-After, lowers the concurrency, then succeeds', async () => {
    const { rig, idle, jobs } = await run(
      { gateway: { faults: '429@1', retryAfterSeconds: 0.1 }, engine: { concurrency: 4 } },
      3,
    );
    expect(idle).toBe('done');
    expect(jobs.map((job) => job.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    // one job was refused once and sent again; the others went through at the first try
    expect(jobs.map((job) => job.tries).sort()).toEqual([1, 1, 2]);
    const limited = jobs.find((job) => job.tries === 2)!;
    const [first, second] = rig.store.attempts.listForJob(limited.id);
    expect(first).toMatchObject({ httpStatus: 429, outcome: 'retry', retryAfterMs: 100 });
    expect(second!.startedAt - first!.endedAt!).toBeGreaterThanOrEqual(100);
    expect(second).toMatchObject({ httpStatus: 200, outcome: 'succeeded' });
    expect(assertLegalPath(rig.store, limited.id)).toEqual([
      'queued→running',
      'running→retrying',
      'retrying→running',
      'running→succeeded',
    ]);
    // halved by the 429, not yet grown back (that takes 20 successes in a row)
    expect(rig.engine.progress().concurrency).toBe(2);
    // the refusal was not billed: one charge per job
    expect(rig.gateway.ledger.entries().filter((e) => e.state === 'settled')).toHaveLength(3);
  });

  it('fails the job as retries-exhausted after the maximum attempts', async () => {
    const { rig, idle, jobs } = await run(
      { gateway: { faults: '429:1', retryAfterSeconds: 0.01 } },
      1,
    );
    expect(idle).toBe('done');
    expect(jobs[0]).toMatchObject({
      state: 'failed',
      failureKind: 'retries-exhausted',
      tries: 5,
      errorCode: 'rate_limit_exceeded',
    });
    expect(rig.store.attempts.listForJob(jobs[0]!.id).map((a) => a.httpStatus)).toEqual([
      429, 429, 429, 429, 429,
    ]);
    expect(rig.engine.progress().concurrency).toBeLessThan(4);
    expect(rig.gateway.ledger.entries()).toHaveLength(0);
    assertLegalPath(rig.store, jobs[0]!.id);

    // "retry failed" queues it again with a fresh budget and says where it came from
    rig.gateway.setFaults('');
    expect(rig.engine.retryFailed()).toBe(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.get(jobs[0]!.id)).toMatchObject({ state: 'succeeded', tries: 1 });
    const log = rig.store.jobs.transitionsOf(jobs[0]!.id);
    expect(log.map((t) => [`${t.from}→${t.to}`, t.reason])).toContainEqual([
      'failed→queued',
      'retry',
    ]);
    assertLegalPath(rig.store, jobs[0]!.id);
  });
});

describe('a gateway that keeps rate limiting', () => {
  it('pauses the queue (rate-limit) after a bounded number of requests, fails no job, and a resume finishes', async () => {
    const concurrency = 8;
    const { rig, idle, jobs } = await run(
      { gateway: { faults: '429:1', retryAfterSeconds: 0.01 }, engine: { concurrency } },
      100,
    );
    expect(idle).toBe('paused');
    const paused = rig.engine.progress().paused;
    expect(paused?.code).toBe('rate-limit');
    expect(paused?.reason).toMatch(/^The gateway keeps rate limiting/);
    expect(rig.engine.progress().concurrency).toBe(1);

    // Each window of the shrinking pool (8, 4, 2) sends at most its size before its first
    // refusal halves it; at one request at a time, RATE_LIMIT_PAUSE_AFTER refusals pause.
    // (before: 500 requests, every job failed with its retries used up)
    const attempts = jobs.flatMap((job) => rig.store.attempts.listForJob(job.id));
    expect(attempts.length).toBeLessThanOrEqual(2 * concurrency + RATE_LIMIT_PAUSE_AFTER);
    expect(attempts.every((attempt) => attempt.httpStatus === 429)).toBe(true);
    expect(jobs.filter((job) => job.state === 'failed')).toEqual([]);
    // those refused wait for their next attempt, the refusals counted; the others, queued
    for (const job of jobs) {
      const tries = rig.store.attempts.listForJob(job.id).length;
      expect(job).toMatchObject({ tries, state: tries > 0 ? 'retrying' : 'queued' });
      assertLegalPath(rig.store, job.id);
    }
    expect(rig.gateway.ledger.entries()).toHaveLength(0);

    // still paused when asked again: no request went out meanwhile
    expect(await rig.engine.whenIdle()).toBe('paused');
    const sent = rig.store.db.prepare('SELECT count(*) AS n FROM attempts').get() as { n: number };
    expect(sent.n).toBe(attempts.length);

    await resumeAfterFix(rig, (r) => r.gateway.setFaults(''));
    const after = jobsOf(rig.store, jobs[0]!.batchId);
    expect(after.filter((job) => job.state !== 'succeeded')).toEqual([]);
    // one charge per job, nothing charged twice
    expect(rig.gateway.ledger.entries().filter((e) => e.state === 'settled')).toHaveLength(100);
    for (const job of after) assertLegalPath(rig.store, job.id);
  });
});

describe('temporary failures', () => {
  it('retries 500, 502, 503 and a reset mid-body, and charges each job exactly once', async () => {
    const { rig, idle, jobs } = await run(
      { gateway: { faults: '500@1,502@2,503@3,reset@4' }, engine: { concurrency: 1 } },
      2,
    );
    expect(idle).toBe('done');
    expect(jobs.map((job) => job.state)).toEqual(['succeeded', 'succeeded']);
    const attempts = jobs
      .flatMap((job) => rig.store.attempts.listForJob(job.id))
      .sort((a, b) => a.id - b.id);
    // every fault in the order sent (the reset: headers arrived, the body did not), then both
    // jobs went through
    expect(attempts.map((a) => [a.httpStatus, a.outcome])).toEqual([
      [500, 'retry'],
      [502, 'retry'],
      [503, 'retry'],
      [null, 'retry'], // a dropped connection carries no status
      [200, 'succeeded'],
      [200, 'succeeded'],
    ]);
    expect(attempts.every((a) => a.requestId !== null)).toBe(true);
    for (const job of jobs) {
      const charged = ledgerOfJob(rig.store, rig.gateway, job.id).filter((e) => e.charged > 0);
      expect(charged).toHaveLength(1);
      expect(rig.store.images.listForJob(job.id)[0]!.downloadState).toBe('done');
      assertLegalPath(rig.store, job.id);
    }
    // the reset answer was billed, then refunded: it never reached the client
    const settled = rig.gateway.ledger.entries().filter((e) => e.state === 'settled');
    expect(settled).toHaveLength(2);
  });

  it('retries an empty data array as a failed generation, which is not charged', async () => {
    const { rig, idle, jobs } = await run({ gateway: { faults: 'empty@1' } }, 1);
    expect(idle).toBe('done');
    expect(jobs[0]).toMatchObject({ state: 'succeeded', tries: 2 });
    const [first, second] = rig.store.attempts.listForJob(jobs[0]!.id);
    expect(first).toMatchObject({ outcome: 'retry', errorCode: 'empty_data' });
    expect(second).toMatchObject({ outcome: 'succeeded' });
    expect(rig.gateway.ledger.find(first!.requestId!)).toMatchObject({
      state: 'refunded',
      charged: 0,
    });
    expect(rig.gateway.ledger.find(second!.requestId!)).toMatchObject({ state: 'settled' });
  });

  it('fails empty answers as empty-result once the attempts run out', async () => {
    const { rig, jobs } = await run({ gateway: { faults: 'empty:1' } }, 1);
    expect(jobs[0]).toMatchObject({ state: 'failed', failureKind: 'empty-result', tries: 5 });
    expect(rig.gateway.ledger.totalCharged()).toBe(0);
  });
});

describe('a retry due far in the future', () => {
  it('arms the wake-up timer for at most 2³¹−1 ms, and runs the job when it is due', async () => {
    // the engine's own clock and timers: the test moves time, nothing waits
    let now = Date.UTC(2030, 0, 1);
    const armed: Array<{ ms: number; wake: () => void }> = [];
    let next: (() => void) | null = null;
    const timers = {
      set: (wake: () => void, ms: number) => {
        armed.push({ ms, wake });
        next?.();
        return armed.length;
      },
      clear: () => {},
    };
    const nextArmed = () => new Promise<void>((resolve) => (next = resolve));
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      rig = await engineRig({ start: false, engine: { now: () => now, timers } });
      const batch = rig.batch(1);
      const [job] = rig.store.jobs.claimRunnable(1, now);
      const due = now + 40 * 24 * 3600 * 1000; // past 2³¹−1 ms (24.8 days)
      rig.store.jobs.scheduleRetry(job!.id, { nextAttemptAt: due, now });
      const engine = rig.newEngine({ now: () => now, timers });
      let armedNow = nextArmed();
      await engine.start();
      await armedNow;
      expect(armed.at(-1)!.ms).toBe(2 ** 31 - 1);
      // it wakes early, finds nothing due, and arms the rest
      now += 2 ** 31 - 1;
      armedNow = nextArmed();
      armed.at(-1)!.wake();
      await armedNow;
      expect(armed.at(-1)!.ms).toBe(due - now);
      now = due;
      armed.at(-1)!.wake();
      expect(await engine.whenIdle()).toBe('done');
      expect(jobsOf(rig.store, batch.id).map((j) => j.state)).toEqual(['succeeded']);
      expect(armed.every(({ ms }) => ms >= 0 && ms <= 2 ** 31 - 1)).toBe(true);
      expect(warnings.filter((w) => w.name === 'TimeoutOverflowWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
