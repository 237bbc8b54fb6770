import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewJob } from '../../../main/core/store/job-repository.ts';
import type { Store } from '../../../main/core/store/store.ts';
import { countsByScan, prompts, tempStore } from './temp-store.ts';

let store: Store;
let cleanup: () => void;
beforeEach(() => ({ store, cleanup } = tempStore()));
afterEach(() => cleanup());

function* lazyJobs(count: number, bad?: number): Generator<NewJob> {
  for (let i = 1; i <= count; i++) {
    yield { prompt: i === bad ? '   ' : `bulk prompt ${i}`, model: 'm', seed: i };
  }
}

describe('creating a batch', () => {
  it('inserts 100,000 jobs from a lazy source, numbered, counted and searchable', () => {
    const batch = store.batches.create({ name: 'big', source: 'big.jsonl' }, lazyJobs(100_000), 1);
    expect(batch).toMatchObject({ jobCount: 100_000, dirName: 'big', source: 'big.jsonl' });
    expect(store.jobs.counts(batch.id).queued).toBe(100_000);
    expect(countsByScan(store, batch.id)).toEqual({ queued: 100_000 });
    const last = store.jobs.listInBatch(batch.id, {
      position: 99_999,
      id: Number.MAX_SAFE_INTEGER,
    });
    expect(last).toHaveLength(1);
    expect(last[0]).toMatchObject({
      position: 100_000,
      prompt: 'bulk prompt 100000',
      seed: 100_000,
    });
    expect(store.jobs.searchPrompts('100000').map((job) => job.position)).toEqual([100_000]);
    expect(store.db.prepare('SELECT count(*) FROM jobs_fts').pluck().get()).toBe(100_000);
  });

  it('is all or nothing: a bad job at the end leaves no batch, job or index entry', () => {
    store.batches.create({ name: 'kept' }, prompts(3), 1);
    expect(() => store.batches.create({ name: 'bad' }, lazyJobs(1_234, 1_234), 2)).toThrow(
      'Job 1234 has no prompt',
    );
    expect(store.batches.list().map((b) => b.name)).toEqual(['kept']);
    expect(store.db.prepare('SELECT count(*) FROM jobs').pluck().get()).toBe(3);
    expect(store.db.prepare('SELECT count(*) FROM batch_state_counts').pluck().get()).toBe(1);
    expect(store.jobs.searchPrompts('bulk')).toEqual([]);
  });

  it('gives batches unique folder names, case-insensitively', () => {
    const names = ['Spring', 'spring', 'CON', '../../etc'].map(
      (name, i) => store.batches.create({ name }, prompts(1), i).dirName,
    );
    expect(names).toEqual(['Spring', 'spring~2', '_CON', '_.._etc']);
  });

  it('keeps settings and reads back a batch as it was written', () => {
    const settings = { template: '{batch}/{index}.{ext}', concurrency: 8 };
    const batch = store.batches.create({ name: 's', settings, priority: 2 }, prompts(1), 5);
    expect(store.batches.get(batch.id)).toEqual({
      id: batch.id,
      name: 's',
      dirName: 's',
      createdAt: 5,
      settings,
      source: null,
      paused: false,
      pauseReason: null,
      priority: 2,
      jobCount: 1,
    });
  });

  it('undoes an import only while none of its jobs has started', () => {
    const untouched = store.batches.create({ name: 'u' }, prompts(3), 1).id;
    expect(store.batches.deleteUnstarted(untouched)).toBe(true);
    expect(store.batches.get(untouched)).toBeUndefined();
    expect(store.jobs.counts()).toMatchObject({ queued: 0 });

    const started = store.batches.create({ name: 's' }, prompts(3), 1).id;
    store.jobs.claimRunnable(1, 2);
    expect(store.batches.deleteUnstarted(started)).toBe(false);
    expect(store.jobs.counts(started)).toMatchObject({ queued: 2, running: 1 });
    expect(() => store.batches.deleteUnstarted(9999)).toThrow('Batch 9999 does not exist');
  });
});
