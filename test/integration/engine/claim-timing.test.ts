import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { engineRig, jobsOf, type EngineRig } from '../../support/engine-harness.ts';
import { captureLogger } from '../../support/capture-logger.ts';
import { pollUntil } from '../../support/poll-until.ts';

// The claim is the last write of a turn's commit, and its work starts the moment it commits.

let rig: EngineRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

describe('the claim and what follows its commit', () => {
  it('a job claimed by a commit can be canceled right after it: nothing is sent for it', async () => {
    rig = await engineRig({ start: false, engine: { concurrency: 1 } });
    const batch = rig.batch(2);
    await rig.engine.start(); // the first claim waits in this turn's group commit
    rig.engine.flushWrites(); // the claim commits now, and the job starts at once
    const [first, second] = jobsOf(rig.store, batch.id);
    expect(rig.store.jobs.get(first!.id)!.state).toBe('running');
    rig.engine.cancelJob(first!.id); // the same tick: its request is aborted, not sent later
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.get(first!.id)!.state).toBe('canceled');
    expect(rig.store.jobs.get(second!.id)!.state).toBe('succeeded');
    expect(rig.store.attempts.listForJob(first!.id).map((a) => a.outcome)).toEqual(['canceled']);
    await rig.gateway.idle();
    expect(rig.gateway.ledger.entries()).toHaveLength(1);
  });

  it('progress() only reads: a claim waiting for its commit stays uncommitted until flushWrites()', async () => {
    rig = await engineRig({ start: false, engine: { concurrency: 1 } });
    const batch = rig.batch(2);
    await rig.engine.start(); // the first claim waits in this turn's group commit
    const [first] = jobsOf(rig.store, batch.id);
    expect(rig.engine.progress().jobs).toMatchObject({ queued: 2, running: 0 });
    expect(rig.store.jobs.get(first!.id)!.state).toBe('queued');
    rig.engine.flushWrites();
    expect(rig.store.jobs.get(first!.id)!.state).toBe('running');
    expect(rig.engine.progress().jobs).toMatchObject({ queued: 1, running: 1 });
    expect(await rig.engine.whenIdle()).toBe('done');
  });

  it('claims again once a lock that refused a claim is gone', async () => {
    const { logger, lines } = captureLogger();
    rig = await engineRig({ start: false, engine: { logger } });
    rig.store.db.pragma('busy_timeout = 50');
    await rig.engine.start();
    expect(await rig.engine.whenIdle()).toBe('done');
    // another process holds the write lock past the time-out: the next claim fails
    const other = new BetterSqlite3(rig.dbFile);
    other.prepare('BEGIN IMMEDIATE').run();
    const refused = () => lines.filter((line) => line.message.includes('could not claim work'));
    try {
      void rig.engine.whenIdle(); // any nudge: a claim is tried and refused
      await pollUntil(() => refused().length > 0, 'a claim was refused');
    } finally {
      other.prepare('ROLLBACK').run();
      other.close();
    }
    expect(refused()[0]).toMatchObject({ level: 'error' });
    expect(String(refused()[0]!.details[0])).toMatch(/locked|busy/i);
    const batch = rig.batch(3);
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.counts(batch.id)).toMatchObject({ succeeded: 3 });
  });

  it('a retry due at once, claimed in the commit of its failure, is tracked as the new attempt', async () => {
    // backoff 0: the failed attempt's retry is due in the very commit that records it, so the
    // claim at the end of that commit takes the job again before the old attempt's task ends
    rig = await engineRig({
      start: false,
      gateway: { faults: 'empty:1' },
      engine: { backoff: { baseMs: 0, capMs: 0, maxAttempts: 5 } },
    });
    const batch = rig.batch(1);
    await rig.engine.start();
    expect(await rig.engine.whenIdle()).toBe('done');
    const [job] = jobsOf(rig.store, batch.id);
    expect(job).toMatchObject({ state: 'failed', failureKind: 'empty-result', tries: 5 });
    expect(rig.store.attempts.listForJob(job!.id)).toHaveLength(5);
  });
});

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('wake', () => {
  it('claims a batch inserted while the engine runs in that turn, without waiting for the ticker', async () => {
    // The once-a-second ticker (the safety net) never fires here: only wake() starts the batch.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      rig = await engineRig();
      expect(await rig.engine.whenIdle()).toBe('done');
      const batch = rig.batch(3);
      await nextTurn();
      await nextTurn();
      expect(rig.store.jobs.counts(batch.id)).toMatchObject({ queued: 3, running: 0 });
      rig.engine.wake();
      await nextTurn(); // the claim commits at the end of the turn wake() was called in
      expect(rig.store.jobs.counts(batch.id)).toMatchObject({ queued: 0, running: 3 });
      expect(await rig.engine.whenIdle()).toBe('done');
      expect(rig.store.jobs.counts(batch.id)).toMatchObject({ succeeded: 3 });
    } finally {
      await rig?.close();
      rig = null;
      vi.useRealTimers();
    }
  });
});

describe('what the engine writes outside its grouped commits', () => {
  it('linked images: nothing but the lease (each name is reserved in a grouped commit)', async () => {
    rig = await engineRig({ start: false, engine: { concurrency: 4, responseFormat: 'url' } });
    rig.batch(8);
    // every statement that writes in a transaction of its own, by its first words
    const alone: string[] = [];
    const statement = Object.getPrototypeOf(rig.store.db.prepare('SELECT 1')) as {
      run: (...args: unknown[]) => unknown;
    };
    const run = statement.run;
    vi.spyOn(statement, 'run').mockImplementation(function (
      this: BetterSqlite3.Statement,
      ...args: unknown[]
    ) {
      const words = this.source.trim().split(/\s+/).slice(0, 3).join(' ');
      const control = /^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i.test(words);
      if (!control && !this.reader && !this.database.inTransaction) alone.push(words);
      return run.apply(this, args);
    });
    try {
      await rig.engine.start();
      expect(await rig.engine.whenIdle()).toBe('done');
    } finally {
      vi.restoreAllMocks();
    }
    expect(rig.engine.progress().downloads).toMatchObject({ done: 8, failed: 0 });
    expect(alone.filter((source) => !source.startsWith('UPDATE queue_state'))).toEqual([]);
  });
});
