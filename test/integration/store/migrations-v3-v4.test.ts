import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../main/core/store/database.ts';
import { MIGRATIONS } from '../../../main/core/store/migrations.ts';
import { openStore } from '../../../main/core/store/store.ts';
import { tempDir } from './temp-store.ts';

let cleanup = () => {};
afterEach(() => cleanup());

describe('schema v3', () => {
  it('backfills the images of a v2 file and reads the pause kind back from its code once', () => {
    const temp = tempDir();
    cleanup = temp.cleanup;
    const file = path.join(temp.dir, 'atelier.db');
    const v2 = openDatabase(file, { migrations: MIGRATIONS.slice(0, 2) });
    v2.exec(`
      INSERT INTO batches (id, name, dir_name, dir_key, created_at) VALUES (7, 'b', 'b', 'b', 1);
      INSERT INTO jobs (id, batch_id, position, prompt, model, size, created_at, updated_at)
        VALUES (3, 7, 1, 'a fox', 'flux-schnell', '512x512', 1, 1);
      INSERT INTO images (job_id, idx, source_url, download_state, rel_path, created_at, updated_at)
        VALUES (3, 1, NULL, 'done', 'b/1.png', 2, 5), (3, 2, 'https://x/2', 'pending', NULL, 2, 2);
      UPDATE queue_state SET paused = 1, pause_reason = 'Out of quota.',
        pause_code = 'insufficient_user_quota', paused_at = 9;
    `);
    v2.close();

    const store = openStore(file);
    try {
      const [done, pending] = store.images.listForJob(3);
      expect(done).toMatchObject({ batchId: 7, model: 'flux-schnell', size: '512x512', doneAt: 5 });
      expect(pending).toMatchObject({ batchId: 7, model: 'flux-schnell', doneAt: null });
      expect(store.queue.get()).toMatchObject({ paused: true, pauseKind: 'balance' });
      // new pauses store their kind as given, whatever the code says
      store.queue.resume();
      store.queue.pause('Stopped by the person.', 10, 'insufficient_user_quota', 'manual');
      expect(store.queue.get().pauseKind).toBe('manual');
    } finally {
      store.close();
    }
  });

  it('copies the batch, model and size of the job into every new image', () => {
    const temp = tempDir();
    cleanup = temp.cleanup;
    const store = openStore(path.join(temp.dir, 'atelier.db'));
    try {
      store.db.exec(`
        INSERT INTO batches (id, name, dir_name, dir_key, created_at) VALUES (2, 'b', 'b', 'b', 1);
        INSERT INTO jobs (id, batch_id, position, prompt, model, size, created_at, updated_at)
          VALUES (4, 2, 1, 'an owl', 'gpt-image-1', '1024x1024', 1, 1);
      `);
      const [image] = store.images.addResults(4, [{ idx: 1, url: 'https://x/1' }], 3);
      expect(image).toMatchObject({
        jobId: 4,
        batchId: 2,
        model: 'gpt-image-1',
        size: '1024x1024',
      });
    } finally {
      store.close();
    }
  });
});

describe('schema v4', () => {
  it('never gives a transition id twice, even after the newest batch is deleted', () => {
    const temp = tempDir();
    cleanup = temp.cleanup;
    const store = openStore(path.join(temp.dir, 'atelier.db'));
    try {
      const run = (name: string) => {
        const batch = store.batches.create({ name }, [{ prompt: name, model: 'm' }], 1);
        const [job] = store.jobs.claimRunnable(1, 2);
        store.jobs.cancel(job!.id, 3);
        return batch.id;
      };
      run('a');
      const b = run('b');
      const highest = store.pages.lastTransitionId();
      store.batches.delete(b);
      run('c');
      const fresh = store.pages.transitionsSince(highest, 10);
      expect(fresh.length).toBe(2);
      expect(fresh.every((t) => t.id > highest)).toBe(true);
      // the log is still append-only, and still written by the jobs' trigger
      expect(() => store.db.exec('UPDATE job_transitions SET reason = 1')).toThrow(/append-only/);
    } finally {
      store.close();
    }
  });
});
