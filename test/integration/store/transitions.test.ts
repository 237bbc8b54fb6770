import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IllegalTransitionError } from '../../../shared/jobs/states.ts';
import { recoverAfterCrash } from '../../../main/core/store/recovery.ts';
import type { Store } from '../../../main/core/store/store.ts';
import { countsByScan, prompts, tempStore } from './temp-store.ts';

let store: Store;
let cleanup: () => void;
let batchId: number;
beforeEach(() => {
  ({ store, cleanup } = tempStore());
  batchId = store.batches.create({ name: 'b' }, prompts(5), 1000).id;
});
afterEach(() => cleanup());

const path = (jobId: number) =>
  store.jobs.transitionsOf(jobId).map(({ from, to, reason }) => `${from}→${to} (${reason})`);
const claimOne = (now = 2000) => store.jobs.claimRunnable(1, now)[0]!;

describe('job transitions', () => {
  it('logs every change with its time and reason, in order', () => {
    const job = claimOne(2000);
    expect(job).toMatchObject({ state: 'running', tries: 1, startedAt: 2000 });
    store.jobs.scheduleRetry(job.id, { nextAttemptAt: 2500, now: 2100, errorCode: '429' });
    expect(store.jobs.claimRunnable(5, 2400).map((j) => j.id)).not.toContain(job.id);
    expect(store.jobs.claimRunnable(1, 2600)[0]).toMatchObject({ id: job.id, tries: 2 });
    store.jobs.succeed(job.id, { returnedN: 1, now: 2700 });
    expect(path(job.id)).toEqual([
      'queued→running (claimed)',
      'running→retrying (retry scheduled)',
      'retrying→running (retry due)',
      'running→succeeded (succeeded)',
    ]);
    expect(store.jobs.transitionsOf(job.id).map((t) => t.at)).toEqual([2000, 2100, 2600, 2700]);
    expect(store.jobs.get(job.id)).toMatchObject({ state: 'succeeded', finishedAt: 2700 });

    // the log can be tailed from a cursor, for progress events
    const all = store.jobs.transitionsSince(0);
    expect(all.map((t) => t.id)).toEqual([...all.map((t) => t.id)].sort((a, b) => a - b));
    expect(all).toHaveLength(8); // this job's 4, and the 4 other jobs claimed at 2400
    const afterFirst = store.jobs.transitionsSince(all[0]!.id, 2);
    expect(afterFirst).toEqual(all.slice(1, 3));
    expect(afterFirst[0]).toMatchObject({ jobId: job.id, to: 'retrying' });
  });

  it('refuses an illegal transition with both states named, and leaves no trace', () => {
    const job = claimOne();
    store.jobs.succeed(job.id, { returnedN: 1, now: 3000 });
    const before = store.jobs.get(job.id);
    const log = store.jobs.transitionsOf(job.id);
    const counts = store.jobs.counts(batchId);

    expect(() => store.jobs.cancel(job.id, 4000)).toThrow(IllegalTransitionError);
    expect(() => store.jobs.cancel(job.id, 4000)).toThrow(
      `Job ${job.id}: a job cannot go from "succeeded" to "canceled"`,
    );
    const queued = store.jobs.listInBatch(batchId).find((j) => j.state === 'queued')!;
    expect(() => store.jobs.succeed(queued.id, { returnedN: 1, now: 4000 })).toThrow(
      'from "queued" to "succeeded"',
    );

    expect(store.jobs.get(job.id)).toEqual(before);
    expect(store.jobs.transitionsOf(job.id)).toEqual(log);
    expect(store.jobs.transitionsOf(queued.id)).toEqual([]);
    expect(store.jobs.counts(batchId)).toEqual(counts);
  });

  it('is guarded by the database too, whoever writes', () => {
    const [first] = store.jobs.listInBatch(batchId);
    expect(() =>
      store.db.prepare(`UPDATE jobs SET state = 'succeeded' WHERE id = ?`).run(first!.id),
    ).toThrow('illegal job transition');
    expect(store.jobs.get(first!.id)!.state).toBe('queued');
    expect(() =>
      store.db
        .prepare(
          `INSERT INTO jobs (batch_id, position, prompt, model, state, created_at, updated_at)
           VALUES (?, 9, 'p', 'm', 'running', 0, 0)`,
        )
        .run(batchId),
    ).toThrow('a new job must be queued');
    claimOne();
    expect(() => store.db.prepare('UPDATE job_transitions SET reason = NULL').run()).toThrow(
      'append-only',
    );
  });

  it('keeps the per-batch counters equal to a full count', () => {
    const [a, b, c, d] = store.jobs.claimRunnable(4, 2000);
    store.jobs.succeed(a!.id, { returnedN: 1, now: 2100 });
    store.jobs.fail(b!.id, { kind: 'rejected', now: 2100, errorCode: '400' });
    store.jobs.scheduleRetry(c!.id, { nextAttemptAt: 9999, now: 2100 });
    store.jobs.cancel(d!.id, 2100);
    store.jobs.requeue(b!.id, 2200);
    const expected = { queued: 2, running: 0, retrying: 1, succeeded: 1, failed: 0, canceled: 1 };
    expect(store.jobs.counts(batchId)).toEqual(expected);
    expect(countsByScan(store, batchId)).toEqual({
      queued: 2,
      retrying: 1,
      succeeded: 1,
      canceled: 1,
    });
    expect(store.jobs.counts()).toEqual(expected);
  });

  it('requeues a failed job with a fresh budget, but an uncertain one only "anyway"', () => {
    const [rejected, uncertain] = store.jobs.claimRunnable(2, 2000);
    store.jobs.fail(rejected!.id, { kind: 'rejected', now: 2100, errorMessage: 'bad size' });
    store.jobs.fail(uncertain!.id, { kind: 'uncertain', now: 2100, errorCode: '504' });

    expect(store.jobs.requeue(rejected!.id, 2200)).toMatchObject({
      state: 'queued',
      tries: 0,
      failureKind: null,
      errorMessage: null,
    });
    expect(() => store.jobs.requeue(uncertain!.id, 2200)).toThrow(/retry anyway/);
    expect(store.jobs.get(uncertain!.id)!.state).toBe('failed');
    store.jobs.requeue(uncertain!.id, 2300, { anyway: true });
    expect(path(uncertain!.id).at(-1)).toBe('failed→queued (retry anyway)');
    expect(path(rejected!.id).at(-1)).toBe('failed→queued (retry)');
  });

  it('retries failed jobs in bulk, keeping uncertain ones apart', () => {
    const jobs = store.jobs.claimRunnable(3, 2000);
    store.jobs.fail(jobs[0]!.id, { kind: 'retries-exhausted', now: 2100 });
    store.jobs.fail(jobs[1]!.id, { kind: 'uncertain', now: 2100 });
    store.jobs.fail(jobs[2]!.id, { kind: 'empty-result', now: 2100 });
    expect(store.jobs.listFailed({ kinds: ['uncertain'] }).map((j) => j.id)).toEqual([jobs[1]!.id]);

    expect(store.jobs.requeueFailed({ uncertain: false, now: 2200 })).toBe(2);
    expect(store.jobs.listFailed().map((j) => j.id)).toEqual([jobs[1]!.id]);
    expect(store.jobs.requeueFailed({ uncertain: true, now: 2300, batchId: batchId + 1 })).toBe(0);
    expect(store.jobs.requeueFailed({ uncertain: true, now: 2300, batchId })).toBe(1);
    expect(store.jobs.counts(batchId).queued).toBe(5);
  });

  it('forgets a failed video task on retry, so it is submitted again; keeps an uncertain one to poll', () => {
    const video = store.batches.create(
      { name: 'v' },
      [1, 2, 3, 4].map((i) => ({ prompt: `clip ${i}`, model: 'v', kind: 'video' as const })),
      1,
    );
    store.jobs.claimRunnable(10, 2000);
    const [taskFailed, uncertain, bulkFailed, bulkUncertain] = store.jobs.listInBatch(video.id);
    for (const [i, job] of [taskFailed, uncertain, bulkFailed, bulkUncertain].entries()) {
      store.jobs.setVideoTask(job!.id, {
        taskId: `task-${i}`,
        status: 'FAILURE',
        progress: '100%',
        now: 2050,
      });
    }
    store.jobs.fail(taskFailed!.id, { kind: 'task-failed', now: 2100 });
    store.jobs.fail(uncertain!.id, { kind: 'uncertain', now: 2100 });
    store.jobs.fail(bulkFailed!.id, { kind: 'task-failed', now: 2100 });
    store.jobs.fail(bulkUncertain!.id, { kind: 'uncertain', now: 2100 });
    const forgotten = { videoTaskId: null, videoTaskStatus: null, videoTaskProgress: null };

    expect(store.jobs.requeue(taskFailed!.id, 2200)).toMatchObject(forgotten);
    expect(store.jobs.requeue(uncertain!.id, 2200, { anyway: true })).toMatchObject({
      videoTaskId: 'task-1',
      videoTaskStatus: 'FAILURE',
    });
    store.jobs.requeueFailed({ uncertain: false, now: 2300, batchId: video.id });
    store.jobs.requeueFailed({ uncertain: true, now: 2300, batchId: video.id });
    expect(store.jobs.get(bulkFailed!.id)).toMatchObject({ state: 'queued', ...forgotten });
    expect(store.jobs.get(bulkUncertain!.id)).toMatchObject({
      state: 'queued',
      videoTaskId: 'task-3',
    });
  });

  it('waits for no retry of a paused batch, as the claim skips it', () => {
    const other = store.batches.create({ name: 'other' }, prompts(1), 1000).id;
    const job = claimOne(2000);
    store.jobs.scheduleRetry(job.id, { nextAttemptAt: 2500, now: 2100 });
    expect(store.jobs.nextRetryAt()).toBe(2500);
    store.batches.setPaused(batchId, true, 'Paused.');
    // the claim takes only the other batch's job, so nothing is due for this process
    const claimed = store.jobs.claimRunnable(10, 3000);
    expect(claimed.map((j) => j.batchId)).toEqual([other]);
    expect(store.jobs.nextRetryAt()).toBeNull();

    // a retry elsewhere still wakes the scheduler
    store.jobs.scheduleRetry(claimed[0]!.id, { nextAttemptAt: 4000, now: 3100 });
    expect(store.jobs.nextRetryAt()).toBe(4000);
    store.batches.setPaused(batchId, false);
    expect(store.jobs.nextRetryAt()).toBe(2500);
  });

  it('hands back a refused request without spending a try', () => {
    const job = claimOne();
    expect(store.jobs.handBack(job.id, 2100, 'queue paused: balance')).toMatchObject({
      state: 'queued',
      tries: 0,
    });
  });

  it('cancels a batch: waiting jobs at once, running ones left to the engine', () => {
    const [running, retrying] = store.jobs.claimRunnable(2, 2000);
    store.jobs.scheduleRetry(retrying!.id, { nextAttemptAt: 5000, now: 2100 });
    expect(store.jobs.cancelBatch(batchId, 2200, { limit: 2 })).toEqual({
      canceled: 2,
      running: [running!.id],
      done: false,
    });
    expect(store.jobs.counts(batchId)).toMatchObject({ canceled: 2, queued: 1, retrying: 1 });
    expect(store.jobs.cancelBatch(batchId, 2200, { limit: 2 })).toEqual({
      canceled: 2,
      running: [running!.id],
      done: true,
    });
    expect(store.jobs.counts(batchId)).toMatchObject({ canceled: 4, running: 1 });
    expect(path(retrying!.id).at(-1)).toBe('retrying→canceled (batch canceled)');
    store.jobs.cancel(running!.id, 2300, 'aborted');
    expect(store.jobs.claimRunnable(5, 9000)).toEqual([]);
  });

  it('tops up a partial success with a new job continuing the image numbers', () => {
    const job = store.jobs.claimRunnable(1, 2000)[0]!;
    const batch = store.batches.create(
      { name: 'n4' },
      [{ prompt: 'fox', model: 'm', n: 4, seed: 7 }],
      1,
    );
    const four = store.jobs.listInBatch(batch.id)[0]!;
    store.jobs.cancel(job.id, 2000);
    store.jobs.claimRunnable(5, 2000); // claims the rest, including `four`
    store.jobs.succeed(four.id, { returnedN: 3, now: 2100 });
    const topUp = store.jobs.createTopUp(four.id, 2200);
    expect(topUp).toMatchObject({
      state: 'queued',
      n: 1,
      retryOf: four.id,
      imageOffset: 3,
      position: four.position,
      prompt: 'fox',
      seed: 7,
    });
    expect(() => store.jobs.createTopUp(job.id, 2200)).toThrow('cannot be topped up');
    expect(() => store.jobs.createTopUp(four.id, 2300)).toThrow(
      `already topped up by job ${topUp.id}`,
    );
    expect(store.jobs.counts(batch.id).queued).toBe(1);
  });

  it('after a crash fails in-flight image jobs as uncertain and resumes submitted videos', () => {
    const video = store.batches.create(
      { name: 'v' },
      [
        { prompt: 'clip', model: 'v', kind: 'video' },
        { prompt: 'clip 2', model: 'v', kind: 'video' },
      ],
      1,
    );
    const claimed = store.jobs.claimRunnable(10, 2000);
    const [v1, v2] = store.jobs.listInBatch(video.id);
    store.jobs.setVideoTask(v1!.id, { taskId: 'task-1', status: 'IN_PROGRESS', now: 2050 });
    const attempt = store.attempts.start(claimed[0]!.id, 2000);

    const report = recoverAfterCrash(store, 3000);
    expect(report.resumeVideo.map((j) => j.id)).toEqual([v1!.id]);
    expect(report.uncertain).toHaveLength(claimed.length - 1);
    expect(report.uncertain).toContain(v2!.id);
    expect(report.interruptedAttempts).toBe(1);
    expect(store.attempts.listForJob(claimed[0]!.id)[0]).toMatchObject({
      id: attempt,
      outcome: 'interrupted',
      endedAt: 3000,
    });
    expect(store.jobs.get(claimed[0]!.id)).toMatchObject({
      state: 'failed',
      failureKind: 'uncertain',
      errorCode: 'interrupted',
    });
    expect(store.jobs.listRunning().map((j) => j.id)).toEqual([v1!.id]);
  });
});
