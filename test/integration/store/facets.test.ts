import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACET_QUERIES } from '../../../main/core/store/gallery-queries.ts';
import type { Store } from '../../../main/core/store/store.ts';
import { tempStore } from './temp-store.ts';

let store: Store;
let cleanup: () => void;

const SIZES = ['1024x1024', '768x512', '1536x1024', null] as const;
const MODELS = ['gpt-image-1', 'flux-schnell', 'dall-e-3'] as const;

const plan = (sql: string) =>
  (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>)
    .map((row) => row.detail)
    .join(' | ');

beforeAll(() => {
  ({ store, cleanup } = tempStore());
  const batch = store.batches.create(
    { name: 'Many' },
    Array.from({ length: 100 }, (_, i) => ({ prompt: `p${i}`, model: 'm' })),
    1,
  );
  // 100,000 images, 1,000 a job: a size and a model each by its number; every 10th not written
  store.db
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99999)
       INSERT INTO images (job_id, batch_id, model, size, idx, source_url, download_state,
         created_at, updated_at, done_at)
       SELECT (SELECT min(id) FROM jobs) + i / 1000, @batch,
         CASE i % 3 WHEN 0 THEN 'gpt-image-1' WHEN 1 THEN 'flux-schnell' ELSE 'dall-e-3' END,
         CASE i % 4 WHEN 0 THEN '1024x1024' WHEN 1 THEN '768x512' WHEN 2 THEN '1536x1024' END,
         i % 1000 + 1, 'https://x/',
         CASE WHEN i % 10 = 9 THEN 'failed' ELSE 'done' END, i, i, i
       FROM n`,
    )
    .run({ batch: batch.id });
});
afterAll(() => cleanup());

describe('the gallery facets', () => {
  it('lists the sizes and models the written images have, with their counts', () => {
    const { sizes, models } = store.gallery.facets();
    const written = (match: (i: number) => boolean) => {
      let count = 0;
      for (let i = 0; i < 100_000; i++) if (i % 10 !== 9 && match(i)) count++;
      return count;
    };
    expect(new Map(sizes.map((f) => [f.value, f.count]))).toEqual(
      new Map(SIZES.map((size, k) => [size, written((i) => i % 4 === k)])),
    );
    expect(new Map(models.map((f) => [f.value, f.count]))).toEqual(
      new Map(MODELS.map((model, k) => [model, written((i) => i % 3 === k)])),
    );
  });

  it('reads one partial index each, never the images, fast on 100,000 images', () => {
    expect(plan(FACET_QUERIES.sizes)).toBe('SCAN images USING COVERING INDEX images_done_by_size');
    expect(plan(FACET_QUERIES.models)).toBe(
      'SCAN images USING COVERING INDEX images_done_by_model',
    );
    store.gallery.facets(); // prepared and cached
    const started = performance.now();
    store.gallery.facets();
    // about 10 ms here; a generous bound for a busy machine
    expect(performance.now() - started).toBeLessThan(250);
  });
});
