import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GalleryFilter } from '../../../main/core/store/gallery-queries.ts';
import type { Store } from '../../../main/core/store/store.ts';
import { tempStore } from './temp-store.ts';

const JOBS = 20_000;
let store: Store;
let cleanup: () => void;
let big: number;
let small: number;

beforeAll(() => {
  ({ store, cleanup } = tempStore());
  const words = ['fox', 'owl', 'lighthouse', 'harbour'];
  big = store.batches.create(
    { name: 'big' },
    (function* () {
      for (let i = 1; i <= JOBS; i++) {
        yield {
          prompt: `a ${words[i % 4]} number ${i}`,
          model: i % 2 ? 'flux-schnell' : 'gpt-image-1',
          size: i % 3 ? '512x512' : '1024x1024',
        };
      }
    })(),
    1,
  ).id;
  small = store.batches.create({ name: 'small' }, [{ prompt: 'a red fox', model: 'm' }], 2).id;
  // one image per job, written at its id (ms), every tenth one a failed download
  store.db.exec(`
    INSERT INTO images (job_id, batch_id, model, size, idx, source_url, download_state,
      failure_code, rel_path, favorite, created_at, updated_at, done_at)
    SELECT id, batch_id, model, size, 1, 'https://x/' || id,
      CASE WHEN id % 10 = 0 THEN 'failed' ELSE 'done' END,
      CASE WHEN id % 10 = 0 THEN 'url-expired' END,
      CASE WHEN id % 10 = 0 THEN NULL ELSE 'b/' || id || '.png' END,
      id % 100 = 1, id, id, CASE WHEN id % 10 = 0 THEN NULL ELSE id END
    FROM jobs;
    ANALYZE;
  `);
});
afterAll(() => cleanup());

const filter = (f: Partial<GalleryFilter> = {}): GalleryFilter => ({
  downloadStates: ['done'],
  order: 'newest',
  ...f,
});

function pageAll(f: GalleryFilter, limit: number): number[] {
  const ids: number[] = [];
  let after: number | null = null;
  for (;;) {
    const page = store.gallery.page(f, after, limit);
    ids.push(...page.map((image) => image.id));
    if (page.length < limit) return ids;
    after = page[page.length - 1]!.id;
  }
}

const plan = (sql: string, params: Record<string, unknown>) =>
  (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>)
    .map((row) => row.detail)
    .join(' | ');

describe('the gallery queries', () => {
  it('page through every written image once, newest or oldest first, and count them', () => {
    const newest = pageAll(filter(), 500);
    // every tenth of the 20,001 images failed to download
    expect(newest).toHaveLength(JOBS + 1 - Math.floor((JOBS + 1) / 10));
    expect(new Set(newest).size).toBe(newest.length);
    expect(newest).toEqual([...newest].sort((a, b) => b - a));
    expect(store.gallery.count(filter())).toBe(newest.length);
    const oldest = pageAll(filter({ order: 'oldest' }), 333);
    expect(oldest).toEqual([...newest].reverse());
  });

  it('compose filters, search and states, and count what they match', () => {
    const f = filter({ batchId: big, model: 'flux-schnell', size: '1024x1024', text: 'owl' });
    const images = pageAll(f, 200).map((id) => store.gallery.byIds([id])[0]!);
    expect(images.length).toBeGreaterThan(100);
    for (const image of images) {
      expect(image).toMatchObject({ batchId: big, model: 'flux-schnell', size: '1024x1024' });
      expect(image.prompt).toContain('owl');
    }
    expect(store.gallery.count(f)).toBe(images.length);
    const failed = filter({ downloadStates: ['failed'], failureCodes: ['url-expired'] });
    expect(store.gallery.count(failed)).toBe(Math.floor((JOBS + 1) / 10));
    expect(store.gallery.count(filter({ text: 'fox', batchId: small }))).toBe(1);
    expect(store.gallery.count(filter({ text: 'owl', batchId: small }))).toBe(0);
    expect(store.gallery.count(filter({ text: '"' }))).toBe(store.gallery.count(filter()));
  });

  it('set favourites and filter on them', () => {
    const before = store.gallery.count(filter({ favorite: true }));
    const [a, b] = store.gallery.ids(filter({ favorite: false }), null, 2);
    expect(store.gallery.setFavorite([a!, b!], true, 1)).toBe(2);
    expect(store.gallery.setFavorite([a!, b!], true, 1)).toBe(0);
    expect(store.gallery.count(filter({ favorite: true }))).toBe(before + 2);
    expect(store.gallery.byIds([b!, a!, 999_999]).map((i) => i.id)).toEqual([b, a]);
    store.gallery.setFavorite([a!, b!], false, 2);
  });

  it('list the images written since a mark in (done_at, id) order', () => {
    const last = store.gallery.lastWritten();
    expect(last).toEqual({ doneAt: JOBS + 1, id: JOBS + 1 });
    const since = store.gallery.writtenSince({ doneAt: JOBS - 5, id: JOBS - 5 }, 10);
    expect(since.map((r) => r.id)).toEqual([JOBS - 4, JOBS - 3, JOBS - 2, JOBS - 1, JOBS + 1]);
    expect(since[0]).toEqual({
      id: JOBS - 4,
      jobId: JOBS - 4,
      batchId: big,
      relPath: `b/${JOBS - 4}.png`,
      doneAt: JOBS - 4,
    });
  });

  it('use the indexes made for them', () => {
    const shape = (where: string) =>
      `SELECT i.id FROM images AS i WHERE i.download_state IN (SELECT value FROM json_each('["done"]')) AND ${where} ORDER BY i.id DESC LIMIT 100`;
    expect(plan(shape('i.batch_id = @b'), { b: small })).toContain('images_by_batch');
    expect(plan(shape('i.model = @m'), { m: 'x' })).toContain('images_by_model');
    expect(plan(shape('i.favorite = 1'), {})).toContain('images_favorites');
    expect(
      plan(
        `SELECT id FROM images WHERE download_state = 'done' AND (done_at > 1 OR (done_at = 1 AND id > 1)) ORDER BY done_at, id LIMIT 10`,
        {},
      ),
    ).toContain('images_done_since');
  });
});

describe('the page queries', () => {
  it('page a batch job ids by state in run order, with the total', () => {
    store.db.exec(`UPDATE jobs SET state = 'running' WHERE batch_id = ${big} AND position <= 30`);
    const query = { batchId: big, states: ['running'] as const };
    const first = store.pages.jobIds({ ...query, limit: 20 });
    const second = store.pages.jobIds({ ...query, after: first.at(-1)!, limit: 20 });
    expect([...first, ...second].map((r) => r.position)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    expect(store.pages.countJobs(query)).toBe(30);
    expect(store.pages.countJobs({ batchId: big })).toBe(JOBS);
    expect(
      plan(
        `SELECT id, position FROM jobs WHERE batch_id = 1 AND state IN (SELECT value FROM json_each('["running"]')) AND (position > 0 OR (position = 0 AND id > 0)) ORDER BY position, id LIMIT 10`,
        {},
      ),
    ).toMatch(/jobs_batch_state|jobs_by_batch/);
  });

  it('read jobs by ids in the order asked and batches newest first', () => {
    expect(store.pages.jobsByIds([3, 1, 424_242, 2]).map((j) => j.id)).toEqual([3, 1, 2]);
    expect(store.pages.batches(Number.MAX_SAFE_INTEGER, 1).map((b) => b.name)).toEqual(['small']);
    expect(store.pages.batches(small, 5).map((b) => b.name)).toEqual(['big']);
    expect(store.pages.openBatches().sort()).toEqual([big, small].sort());
  });
});

describe('retrying the downloads of chosen jobs', () => {
  it('queues only their failed downloads again, and counts the expired links among them', () => {
    // jobs 10 and 20 have a failed download (link expired); job 21's image is written
    const retried = store.images.retryFailedDownloadsOfJobs([10, 20, 21], 5);
    expect(retried).toMatchObject({ queued: 2, expired: 2 });
    // which images, so that the windows showing them hear of it (images.changed)
    expect(retried.images.map((image) => image.id).sort()).toEqual([10, 20]);
    expect(store.images.get(10)).toMatchObject({ downloadState: 'pending' });
    expect(store.images.get(21)).toMatchObject({ downloadState: 'done' });
    expect(store.images.retryFailedDownloadsOfJobs([10, 20], 6)).toMatchObject({
      queued: 0,
      expired: 0,
    });
  });
});
