import type { Database } from 'better-sqlite3';
import { guessPauseKind } from './v3-pause-kind.ts';

/**
 * Version 3: what the application's screens filter and page on.
 * - queue_state.pause_kind: why the queue paused, stored where it is known (not guessed back).
 * - images.batch_id, model, size: the gallery filters without joining jobs for every row.
 * - images.done_at: when the file was written, the events' cursor for images.
 * - indexes for paging 100,000 images and jobs by batch and state.
 */
export function schemaV3(db: Database): void {
  db.exec(`
    ALTER TABLE queue_state ADD COLUMN pause_kind TEXT;
    ALTER TABLE images ADD COLUMN batch_id INTEGER REFERENCES batches(id) ON DELETE CASCADE;
    ALTER TABLE images ADD COLUMN model TEXT;
    ALTER TABLE images ADD COLUMN size TEXT;
    ALTER TABLE images ADD COLUMN done_at INTEGER;
    UPDATE images SET batch_id = j.batch_id, model = j.model, size = j.size
      FROM jobs AS j WHERE j.id = images.job_id;
    UPDATE images SET done_at = updated_at WHERE download_state = 'done';
    CREATE INDEX images_by_batch ON images (batch_id, id);
    CREATE INDEX images_by_model ON images (model, id);
    CREATE INDEX images_by_size ON images (size, id);
    CREATE INDEX images_by_time ON images (created_at);
    CREATE INDEX images_favorites ON images (id) WHERE favorite = 1;
    CREATE INDEX images_done_since ON images (done_at, id) WHERE download_state = 'done';
    CREATE INDEX jobs_batch_state ON jobs (batch_id, state, position, id);
  `);
  const queue = db.prepare('SELECT paused, pause_code FROM queue_state WHERE id = 1').get() as
    { paused: number; pause_code: string | null } | undefined;
  if (queue?.paused === 1) {
    db.prepare('UPDATE queue_state SET pause_kind = ? WHERE id = 1').run(
      guessPauseKind(queue.pause_code),
    );
  }
}
