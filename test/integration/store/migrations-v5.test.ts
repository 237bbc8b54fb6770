import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { openDatabase } from '../../../main/core/store/database.ts';
import type { GalleryFilter } from '../../../main/core/store/gallery-queries.ts';
import { latestVersion, MIGRATIONS, userVersion } from '../../../main/core/store/migrations.ts';
import { openStore, type Store } from '../../../main/core/store/store.ts';
import { tempDir } from './temp-store.ts';

let cleanup = () => {};
afterEach(() => cleanup());

const ALL: GalleryFilter = {
  downloadStates: ['pending', 'downloading', 'done', 'failed'],
  order: 'oldest',
};
const search = (store: Store, text: string) => store.gallery.ids({ ...ALL, text }, null, 100);

/** Two batches of jobs with images, transitions and a payload, as a running Atelier leaves them. */
function fill(store: Store): { batches: number[]; jobs: number[]; images: number[] } {
  const batches: number[] = [];
  const jobs: number[] = [];
  const images: number[] = [];
  for (const [name, prompts] of [
    ['birds', ['a heron at dawn', 'an owl in snow']],
    ['beasts', ['a red fox', 'a fox and a hare']],
  ] as const) {
    const batch = store.batches.create(
      { name },
      prompts.map((prompt) => ({ prompt, model: 'm' })),
      1,
    );
    batches.push(batch.id);
    for (const job of store.jobs.listInBatch(batch.id, { position: 0, id: 0 }, 100)) {
      jobs.push(job.id);
      const added = store.images.addResults(
        job.id,
        [
          { idx: 1, url: `https://cdn.example/${job.id}/1.png` },
          { idx: 2, b64: Buffer.from('bytes').toString('base64') },
        ],
        2,
      );
      images.push(...added.map((image) => image.id));
    }
  }
  store.jobs.claimRunnable(1, 3); // one job running: a transition in the log
  return { batches, jobs, images };
}

type Row = Record<string, unknown>;

function rowsOf(db: Database, table: string, columns: string[] = ['*']): Row[] {
  return db.prepare(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY 1, 2`).all() as Row[];
}

const columnsOf = (rows: Row[]) => Object.keys(rows[0] ?? { '*': 0 });

/**
 * What fill() makes, written as a v4 Atelier wrote it: two batches of two jobs (in the prompt
 * index, counted), two images each (a link and a payload), one job running.
 */
function fillV4(db: Database): { batches: number[]; jobs: number[]; images: number[] } {
  const batches: number[] = [];
  const jobs: number[] = [];
  const images: number[] = [];
  const now = 1;
  const batch = db.prepare(
    `INSERT INTO batches (name, dir_name, dir_key, created_at, job_count) VALUES (?, ?, ?, ?, 2)`,
  );
  const job = db.prepare(
    `INSERT INTO jobs (batch_id, position, prompt, model, created_at, updated_at)
     VALUES (?, ?, ?, 'm', ?, ?)`,
  );
  const indexed = db.prepare('INSERT INTO jobs_fts (rowid, prompt) VALUES (?, ?)');
  const counted = db.prepare(
    `INSERT INTO batch_state_counts (batch_id, state, n) VALUES (?, 'queued', 2)`,
  );
  const image = db.prepare(
    `INSERT INTO images (job_id, batch_id, model, idx, source_url, has_payload, created_at,
       updated_at) VALUES (?, ?, 'm', ?, ?, ?, ?, ?)`,
  );
  const payload = db.prepare('INSERT INTO image_payloads (image_id, bytes) VALUES (?, ?)');
  db.transaction(() => {
    for (const [name, prompts] of [
      ['birds', ['a heron at dawn', 'an owl in snow']],
      ['beasts', ['a red fox', 'a fox and a hare']],
    ] as const) {
      const batchId = Number(batch.run(name, name, name, now).lastInsertRowid);
      batches.push(batchId);
      counted.run(batchId);
      prompts.forEach((prompt, i) => {
        const jobId = Number(job.run(batchId, i + 1, prompt, now, now).lastInsertRowid);
        jobs.push(jobId);
        indexed.run(jobId, prompt);
        const url = Number(
          image.run(jobId, batchId, 1, `https://cdn.example/${jobId}/1.png`, 0, now, now)
            .lastInsertRowid,
        );
        const data = Number(image.run(jobId, batchId, 2, null, 1, now, now).lastInsertRowid);
        payload.run(data, Buffer.from('bytes'));
        images.push(url, data);
      });
    }
    // one job running: a transition in the log
    db.prepare(
      `UPDATE jobs SET state = 'running', updated_at = 2 WHERE id = (SELECT min(id) FROM jobs)`,
    ).run();
  })();
  return { batches, jobs, images };
}

describe('schema v5: batch, job and image ids are never reused', () => {
  it('a deleted newest image, job or batch never gives its id to the next one', () => {
    const temp = tempDir();
    cleanup = temp.cleanup;
    const store = openStore(path.join(temp.dir, 'atelier.db'));
    try {
      const { batches, jobs, images } = fill(store);
      const newestImage = Math.max(...images);
      expect(store.gallery.deleteRows([newestImage])).toEqual([newestImage]);
      const [fresh] = store.images.addResults(jobs[0]!, [{ idx: 3, url: 'https://x/3' }], 4);
      expect(fresh!.id).toBeGreaterThan(newestImage);

      const newestBatch = Math.max(...batches);
      store.batches.delete(newestBatch);
      const again = store.batches.create({ name: 'again' }, [{ prompt: 'a lark', model: 'm' }], 5);
      expect(again.id).toBeGreaterThan(newestBatch);
      const [job] = store.jobs.listInBatch(again.id, { position: 0, id: 0 }, 10);
      expect(job!.id).toBeGreaterThan(Math.max(...jobs));
    } finally {
      store.close();
    }
  });

  it('migrates a v4 file with its data: ids, foreign keys, triggers and prompt search intact', () => {
    const temp = tempDir();
    cleanup = temp.cleanup;
    const file = path.join(temp.dir, 'atelier.db');
    // the v4 file written in v4's own SQL: today's repositories need columns added since
    const v4 = openDatabase(file, { migrations: MIGRATIONS.slice(0, 4) });
    const made = fillV4(v4);
    const tables = ['batches', 'jobs', 'images', 'image_payloads', 'job_transitions'];
    const before = Object.fromEntries(tables.map((t) => [t, rowsOf(v4, t)]));
    const counts = rowsOf(v4, 'batch_download_counts');
    v4.close();

    const store = openStore(file);
    try {
      expect(userVersion(store.db)).toBe(latestVersion());
      // (later versions add columns: the v4 ones keep their values)
      for (const table of tables) {
        expect(rowsOf(store.db, table, columnsOf(before[table]!)), table).toEqual(before[table]);
      }
      expect(rowsOf(store.db, 'batch_download_counts')).toEqual(counts);
      for (const table of ['batches', 'jobs', 'images']) {
        const { sql } = store.db
          .prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`)
          .get(table) as { sql: string };
        expect(sql, table).toMatch(/^\s*id\s+INTEGER PRIMARY KEY AUTOINCREMENT,/m);
      }
      expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(store.db.pragma('foreign_key_check')).toEqual([]);
      expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
      // the search index still follows the jobs by id
      store.db.exec(`INSERT INTO jobs_fts (jobs_fts) VALUES ('integrity-check')`);
      expect(search(store, 'fox')).toEqual(search(store, 'fox').toSorted((a, b) => a - b));
      expect(search(store, 'fox')).toHaveLength(4);
      expect(search(store, 'heron')).toEqual(made.images.slice(0, 2));

      // triggers: transitions logged and counted, the state guard, download counts
      const [running] = store.jobs.listInBatch(made.batches[0]!, { position: 0, id: 0 }, 1);
      store.jobs.cancel(running!.id, 9);
      expect(store.jobs.transitionsOf(running!.id).map((t) => t.to)).toEqual([
        'running',
        'canceled',
      ]);
      expect(() =>
        store.db.prepare(`UPDATE jobs SET state = 'succeeded' WHERE id = ?`).run(running!.id),
      ).toThrow(/illegal job transition/);

      // deleting cascades as before: a batch takes its jobs, images and payloads
      const beasts = made.batches[1]!;
      store.batches.delete(beasts);
      expect(
        store.db.prepare('SELECT count(*) AS n FROM jobs WHERE batch_id = ?').get(beasts),
      ).toEqual({ n: 0 });
      expect((store.db.prepare('SELECT count(*) AS n FROM images').get() as { n: number }).n).toBe(
        4,
      );
      expect(
        (store.db.prepare('SELECT count(*) AS n FROM image_payloads').get() as { n: number }).n,
      ).toBe(2);
      expect(search(store, 'fox')).toEqual([]);

      // and from now on no id is given twice
      const newest = Math.max(...made.images.slice(0, 4));
      store.gallery.deleteRows([newest]);
      const [fresh] = store.images.addResults(made.jobs[0]!, [{ idx: 3, url: 'https://x/3' }], 4);
      expect(fresh!.id).toBeGreaterThan(Math.max(...made.images));
    } finally {
      store.close();
    }
  });

  it('leaves a v4 file unchanged when its rows point at nothing, foreign keys on again', () => {
    const temp = tempDir();
    cleanup = temp.cleanup;
    const file = path.join(temp.dir, 'atelier.db');
    const v4 = openDatabase(file, { migrations: MIGRATIONS.slice(0, 4) });
    v4.pragma('foreign_keys = OFF');
    v4.exec(`INSERT INTO jobs (id, batch_id, position, prompt, model, created_at, updated_at)
             VALUES (1, 99, 1, 'an orphan', 'm', 1, 1)`);
    v4.close();
    expect(() => openDatabase(file)).toThrow(
      /Migration 5 .* 1 rows pointing at nothing .*unchanged/,
    );
    const after = openDatabase(file, { migrations: MIGRATIONS.slice(0, 4) });
    try {
      expect(userVersion(after)).toBe(4);
      expect(
        after.prepare(`SELECT sql FROM sqlite_master WHERE name = 'jobs'`).get(),
      ).not.toMatchObject({
        sql: expect.stringContaining('AUTOINCREMENT'),
      });
      expect(after.prepare('SELECT prompt FROM jobs').all()).toEqual([{ prompt: 'an orphan' }]);
    } finally {
      after.close();
    }
  });
});
