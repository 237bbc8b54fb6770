import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GalleryFilter } from '../../../main/core/store/gallery-queries.ts';
import type { Store } from '../../../main/core/store/store.ts';
import { tempStore } from './temp-store.ts';

const HOUR = 3_600_000;
// noon, local time, so every image of a day stays on that day whatever the time zone
const START = new Date(2026, 2, 1, 12).getTime();
let store: Store;
let cleanup: () => void;
let a: number;
let b: number;

const filter = (f: Partial<GalleryFilter> = {}): GalleryFilter => ({
  downloadStates: ['done'],
  order: 'newest',
  ...f,
});

const localDay = (ms: number) => {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

/** Images in id order: [batch, job, created_at, state]. */
function addImages(rows: Array<[number, number, number, string]>): void {
  const insert = store.db.prepare(
    `INSERT INTO images (job_id, batch_id, model, size, idx, source_url, download_state,
       rel_path, created_at, updated_at, done_at)
     VALUES (@job, @batch, 'm', '512x512',
       (SELECT count(*) + 1 FROM images WHERE job_id = @job), 'https://x/', @state,
       CASE WHEN @state = 'done' THEN 'p/' || @job || '-' || @at || '.png' END, @at, @at, @at)`,
  );
  for (const [batch, job, at, state] of rows) insert.run({ batch, job, at, state });
}

/** Moves a job to succeeded with `returned` of its `n` images. */
function succeed(jobId: number, n: number, returned: number): void {
  store.db.exec(`UPDATE jobs SET n = ${n}, state = 'running' WHERE id = ${jobId};
    UPDATE jobs SET state = 'succeeded', returned_n = ${returned} WHERE id = ${jobId};`);
}

const plan = (sql: string) =>
  (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>)
    .map((row) => row.detail)
    .join(' | ');

beforeAll(() => {
  ({ store, cleanup } = tempStore());
  a = store.batches.create(
    { name: 'Harbour' },
    [1, 2, 3].map((i) => ({ prompt: `a${i}`, model: 'm' })),
    1,
  ).id;
  b = store.batches.create(
    { name: 'Foxes' },
    [1, 2].map((i) => ({ prompt: `b${i}`, model: 'm' })),
    2,
  ).id;
  // jobs 1-3 in batch a, 4-5 in b; job 2 returned 1 of 3, job 4 returned 2 of 4
  succeed(1, 2, 2);
  succeed(2, 3, 1);
  succeed(3, 1, 1);
  succeed(4, 4, 2);
  succeed(5, 1, 1);
  // ids 1..10 in this order: a a | b | a a | b b (next day) | a (failed) | a a
  addImages([
    [a, 1, START, 'done'],
    [a, 1, START + HOUR, 'done'],
    [b, 4, START + 2 * HOUR, 'done'],
    [a, 2, START + 3 * HOUR, 'done'],
    [a, 3, START + 4 * HOUR, 'done'],
    [b, 4, START + 24 * HOUR, 'done'],
    [b, 5, START + 25 * HOUR, 'done'],
    [a, 1, START + 26 * HOUR, 'failed'],
    [a, 2, START + 48 * HOUR, 'pending'],
    [a, 3, START + 49 * HOUR, 'done'],
  ]);
});
afterAll(() => cleanup());

describe('the partial-result filter', () => {
  it('keeps only the images of jobs that returned fewer images than asked, and counts them', () => {
    const partial = store.gallery.ids(filter({ partial: true, order: 'oldest' }), null, 100);
    // jobs 2 and 4: images 3, 4, 6 written (9 is pending, not asked for)
    expect(partial).toEqual([3, 4, 6]);
    expect(store.gallery.count(filter({ partial: true }))).toBe(3);
    const all = store.gallery.count(filter({ downloadStates: ['done', 'pending'] }));
    expect(
      store.gallery.count(filter({ partial: true, downloadStates: ['done', 'pending'] })),
    ).toBe(4);
    expect(
      store.gallery.count(filter({ partial: false, downloadStates: ['done', 'pending'] })),
    ).toBe(all - 4);
    expect(
      store.gallery.page(filter({ partial: false }), null, 100).map((i) => i.jobId),
    ).not.toContain(2);
  });

  it('still counts a partial job once it has been topped up', () => {
    const topUp = store.jobs.createTopUp(2, 10);
    expect(store.gallery.count(filter({ partial: true }))).toBe(3);
    store.db.prepare('DELETE FROM jobs WHERE id = ?').run(topUp.id);
  });

  it('reads the partial jobs once, not once per image', () => {
    const where = `i.download_state IN (SELECT value FROM json_each('["done"]'))
      AND i.job_id IN (SELECT j.id FROM jobs AS j WHERE j.state = 'succeeded' AND j.returned_n < j.n)`;
    const detail = plan(`SELECT i.id FROM images AS i WHERE ${where} ORDER BY i.id DESC LIMIT 100`);
    expect(detail).toMatch(/LIST SUBQUERY|USING INDEX sqlite_autoindex_images/);
    expect(detail).not.toContain('CORRELATED');
  });
});

describe('groups of the filtered list', () => {
  it('are the runs of one batch in the list order, with its name, adding up to the count', () => {
    const newest = store.gallery.groups(filter(), 'batch');
    // done images newest first: 10 a, 7 b, 6 b, 5 a, 4 a, 3 b, 2 a, 1 a
    expect(newest).toEqual([
      { key: String(a), label: 'Harbour', count: 1 },
      { key: String(b), label: 'Foxes', count: 2 },
      { key: String(a), label: 'Harbour', count: 2 },
      { key: String(b), label: 'Foxes', count: 1 },
      { key: String(a), label: 'Harbour', count: 2 },
    ]);
    const oldest = store.gallery.groups(filter({ order: 'oldest' }), 'batch');
    expect(oldest).toEqual([...newest].reverse());
    const states = filter({ downloadStates: ['done', 'failed', 'pending'] });
    expect(store.gallery.groups(states, 'batch').map((g) => g.count)).toEqual([3, 2, 2, 1, 2]);
  });

  it('are the runs of one local day, keyed and labelled YYYY-MM-DD', () => {
    const days = store.gallery.groups(filter({ order: 'oldest' }), 'day');
    expect(days).toEqual([
      { key: localDay(START), label: localDay(START), count: 5 },
      { key: localDay(START + 24 * HOUR), label: localDay(START + 24 * HOUR), count: 2 },
      { key: localDay(START + 49 * HOUR), label: localDay(START + 49 * HOUR), count: 1 },
    ]);
  });

  it('follow every filter, and add up to its count', () => {
    for (const f of [
      filter({ partial: true }),
      filter({ batchId: b }),
      filter({ text: 'a2' }),
      filter({ downloadStates: ['failed'] }),
      filter({ from: START + 2 * HOUR, to: START + 25 * HOUR }),
    ]) {
      for (const by of ['batch', 'day'] as const) {
        const groups = store.gallery.groups(f, by);
        expect(groups.reduce((sum, g) => sum + g.count, 0)).toBe(store.gallery.count(f));
      }
    }
    expect(store.gallery.groups(filter({ batchId: 999 }), 'batch')).toEqual([]);
  });
});

describe('deleting image rows', () => {
  it('deletes in one statement, skips downloads in flight, and keeps the counts right', () => {
    const before = store.images.counts(a);
    store.db.exec(`UPDATE images SET download_state = 'downloading' WHERE id = 9`);
    expect(store.gallery.deleteRows([1, 8, 9, 424_242]).sort()).toEqual([1, 8]);
    expect(store.gallery.byIds([1, 8, 9]).map((i) => i.id)).toEqual([9]);
    const after = store.images.counts(a);
    expect(after.done).toBe(before.done - 1);
    expect(after.failed).toBe(before.failed - 1);
    expect(store.gallery.count(filter({ batchId: a }))).toBe(after.done);
    // the job stays, and its state counts do not move
    expect(store.jobs.get(1)).toMatchObject({ state: 'succeeded' });
  });
});
