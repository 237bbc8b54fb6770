import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SCHEDULER_QUERIES } from '../../../main/core/store/job-repository.ts';
import type { Store } from '../../../main/core/store/store.ts';
import { prompts, tempStore } from './temp-store.ts';

let store: Store;
let cleanup: () => void;
beforeEach(() => ({ store, cleanup } = tempStore()));
afterEach(() => cleanup());

const prompt = (jobs: Array<{ prompt: string }>) => jobs.map((job) => job.prompt);

describe('claimRunnable', () => {
  it('takes jobs by priority, then insertion order, across batches', () => {
    store.batches.create({ name: 'a' }, prompts(3, 'a'), 1);
    const b = store.batches.create({ name: 'b' }, prompts(3, 'b'), 2);
    const [, b2] = store.jobs.listInBatch(b.id);
    store.jobs.setPriority([b2!.id], 5, 3);
    expect(prompt(store.jobs.claimRunnable(4, 10))).toEqual(['b 2', 'a 1', 'a 2', 'a 3']);
    expect(prompt(store.jobs.claimRunnable(4, 10))).toEqual(['b 1', 'b 3']);
    expect(store.jobs.claimRunnable(4, 10)).toEqual([]);
  });

  it('runs a higher-priority batch first and never hands out a job twice', () => {
    store.batches.create({ name: 'low' }, prompts(3, 'low'), 1);
    const high = store.batches.create({ name: 'high', priority: 1 }, prompts(2, 'high'), 2);
    expect(prompt(store.jobs.claimRunnable(3, 10))).toEqual(['high 1', 'high 2', 'low 1']);
    store.batches.setPriority(high.id, -1);
    expect(prompt(store.jobs.claimRunnable(10, 10))).toEqual(['low 2', 'low 3']);
  });

  it('skips paused batches, paused jobs and a paused queue', () => {
    const a = store.batches.create({ name: 'a' }, prompts(2, 'a'), 1);
    const b = store.batches.create({ name: 'b', paused: true }, prompts(2, 'b'), 2);
    store.jobs.setPaused([store.jobs.listInBatch(a.id)[0]!.id], true, 3);
    expect(prompt(store.jobs.claimRunnable(10, 10))).toEqual(['a 2']);

    store.batches.setPaused(b.id, false);
    store.queue.pause('Authentication failed: check the API key.', 20, 'auth', 'auth');
    expect(store.jobs.claimRunnable(10, 30)).toEqual([]);
    expect(store.queue.get()).toMatchObject({ paused: true, pauseCode: 'auth' });
    store.queue.resume();
    expect(prompt(store.jobs.claimRunnable(10, 40))).toEqual(['b 1', 'b 2']);
  });

  it('waits for a retry to be due, then runs it before queued jobs', () => {
    const a = store.batches.create({ name: 'a' }, prompts(3, 'a'), 1);
    const [first] = store.jobs.claimRunnable(1, 10);
    store.jobs.scheduleRetry(first!.id, { nextAttemptAt: 100, now: 20 });
    expect(prompt(store.jobs.claimRunnable(1, 99))).toEqual(['a 2']);
    expect(prompt(store.jobs.claimRunnable(2, 100))).toEqual(['a 1', 'a 3']);
    expect(store.jobs.get(first!.id)).toMatchObject({ tries: 2, nextAttemptAt: null });

    // a due retry in a paused batch waits too
    const [again] = [store.jobs.listInBatch(a.id)[0]!];
    store.jobs.scheduleRetry(again.id, { nextAttemptAt: 200, now: 150 });
    store.batches.setPaused(a.id, true);
    expect(store.jobs.claimRunnable(5, 300)).toEqual([]);
  });

  it('reads the scheduler queries through their indexes, never scanning jobs', () => {
    const plan = (sql: string, ...params: unknown[]) =>
      (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>)
        .map((row) => row.detail)
        .join('\n');

    const queued = plan(SCHEDULER_QUERIES.queuedInBatch, 1, 10);
    expect(queued).toMatch(/USING (COVERING )?INDEX jobs_queued_order/);
    expect(queued).not.toContain('TEMP B-TREE');

    const due = plan(SCHEDULER_QUERIES.dueRetrying, 0, 10);
    expect(due).toMatch(/USING (COVERING )?INDEX jobs_retry_due/);
    expect(due).not.toContain('TEMP B-TREE');

    for (const sql of Object.values(SCHEDULER_QUERIES)) {
      expect(plan(sql, ...(sql.includes('LIMIT') ? [1, 1] : []))).not.toMatch(/SCAN (jobs|j)\b/);
    }
  });

  it('never visits a paused batch, however big, to find runnable jobs', () => {
    const big = store.batches.create({ name: 'big', paused: true }, prompts(20_000, 'big'), 1);
    const small = store.batches.create({ name: 'small' }, prompts(2, 'small'), 2);
    // the claim only seeks into the batches this query lists
    expect(store.db.prepare(SCHEDULER_QUERIES.runnableBatches).all()).toEqual([
      { id: small.id, priority: 0 },
    ]);
    expect(prompt(store.jobs.claimRunnable(5, 10))).toEqual(['small 1', 'small 2']);
    expect(store.db.prepare(SCHEDULER_QUERIES.runnableBatches).all()).toEqual([]);
    expect(store.jobs.counts(big.id).queued).toBe(20_000);
  });
});
