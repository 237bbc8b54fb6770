/**
 * The gallery store's groups, partial filter and count on 100,000 images in 50 interleaved
 * batches over 200 days (not a test): `node test/bench/store-groups.ts`. Median of 7 runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GalleryFilter } from '../../main/core/store/gallery-queries.ts';
import { openStore } from '../../main/core/store/store.ts';

const IMAGES = 100_000;
const BATCHES = 50;
const dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-groups-'));
const store = openStore(path.join(dir, 'atelier.db'));
try {
  for (let b = 0; b < BATCHES; b++) {
    const jobs = Array.from({ length: IMAGES / BATCHES }, (_, i) => ({
      prompt: `a fox ${b} ${i}`,
      model: 'm',
    }));
    store.batches.create({ name: `batch ${b}` }, jobs, 1);
  }
  // every seventh job returned nothing of its one image: a partial result
  store.db.exec(`UPDATE jobs SET state = 'running';
    UPDATE jobs SET state = 'succeeded', returned_n = CASE WHEN id % 7 = 0 THEN 0 ELSE 1 END;`);
  // runs of about 37 images of one batch, one image every 172.8 s
  store.db.exec(`INSERT INTO images (job_id, batch_id, model, size, idx, source_url,
      download_state, rel_path, created_at, updated_at, done_at)
    SELECT id, batch_id, model, size, 1, 'u', 'done', 'x/' || id || '.png',
      1767225600000 + id * 172800, 0, id
    FROM jobs ORDER BY (id % 1000) / 37, id;
    ANALYZE;`);
  const all: GalleryFilter = { downloadStates: ['done'], order: 'newest' };
  const cases: Array<[string, () => number]> = [
    ['count (model filter: a scan)', () => store.gallery.count({ ...all, model: 'm' })],
    ['groups by batch', () => store.gallery.groups(all, 'batch').length],
    ['groups by day', () => store.gallery.groups(all, 'day').length],
    [
      'groups by batch, partial',
      () => store.gallery.groups({ ...all, partial: true }, 'batch').length,
    ],
    ['count partial', () => store.gallery.count({ ...all, partial: true })],
    [
      'first 100 ids, partial',
      () => store.gallery.ids({ ...all, partial: true }, null, 100).length,
    ],
  ];
  for (const [name, run] of cases) {
    run();
    const times: number[] = [];
    let result = 0;
    for (let i = 0; i < 7; i++) {
      const start = performance.now();
      result = run();
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    console.log(`${name.padEnd(30)} ${String(result).padStart(6)}  ${times[3]!.toFixed(1)} ms`);
  }
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
