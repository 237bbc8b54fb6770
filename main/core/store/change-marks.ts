import type { Database } from 'better-sqlite3';

/**
 * Per batch, a short text that changes when something of it changes that another process may
 * have done: the batch row (name, order, hold), its counts by state and download state, which
 * of its jobs are held, the order of its jobs (a move to the front or back takes a priority
 * past the batch's highest or lowest), which of its images are favourites. Compared between two
 * reads, it says which batches to tell the windows about; `touchedJobs` and `touchedImages`
 * then say which of their rows, by the time they were changed. Every mark reads a counts table
 * or an index: a read costs milliseconds with 100,000 jobs.
 */
export interface ChangeMarks {
  batches: Map<number, string>;
  counts: Map<number, string>;
  held: Map<number, string>;
  jobOrder: Map<number, string>;
  favorites: Map<number, string>;
}

type MarkRow = { id: number; mark: string };

export class ChangeMarkQueries {
  private readonly s;

  constructor(db: Database) {
    const sql = (text: string) => db.prepare<[], MarkRow>(text);
    this.s = {
      batches: sql(
        `SELECT id, name || char(0) || priority || char(0) || paused || char(0) ||
           coalesce(pause_reason, '') AS mark FROM batches`,
      ),
      counts: sql(
        `SELECT batch_id AS id, group_concat(state || n, ',') AS mark FROM (
           SELECT batch_id, state, n FROM batch_state_counts
           UNION ALL SELECT batch_id, 'd' || state, n FROM batch_download_counts
         ) GROUP BY batch_id`,
      ),
      // waiting jobs less the unheld ones: both read from covering indexes, not the table
      held: sql(
        `SELECT w.id, (w.n - coalesce(u.n, 0)) || ':' || (w.t - coalesce(u.t, 0)) AS mark
         FROM (SELECT batch_id AS id, count(*) AS n, total(id) AS t FROM jobs
               WHERE state IN ('queued', 'retrying') GROUP BY batch_id) AS w
         LEFT JOIN (SELECT batch_id AS id, count(*) AS n, total(id) AS t FROM (
                      SELECT batch_id, id FROM jobs WHERE state = 'queued' AND paused = 0
                      UNION ALL
                      SELECT batch_id, id FROM jobs WHERE state = 'retrying' AND paused = 0)
                    GROUP BY batch_id) AS u ON u.id = w.id`,
      ),
      // two lookups in jobs_queued_order (batch_id, priority DESC, id) per batch
      jobOrder: sql(
        `SELECT b.id,
           (SELECT max(priority) FROM jobs WHERE batch_id = b.id) || ':' ||
           (SELECT min(priority) FROM jobs WHERE batch_id = b.id) AS mark
         FROM batches AS b`,
      ),
      favorites: sql(
        `SELECT batch_id AS id, count(*) || ':' || total(id) AS mark FROM images
         WHERE favorite = 1 GROUP BY batch_id`,
      ),
      touchedJobs: db.prepare<[number, number], { id: number }>(
        `SELECT id FROM jobs
         WHERE batch_id = ? AND state IN ('queued', 'retrying') AND updated_at >= ?`,
      ),
      touchedImages: db.prepare<[number, number], { id: number }>(
        'SELECT id FROM images WHERE batch_id = ? AND updated_at >= ?',
      ),
      dataVersion: db.prepare<[], { data_version: number }>('PRAGMA data_version'),
    };
  }

  /** A batch's waiting jobs (those a hold or a move applies to) changed since `since`. */
  touchedJobs(batchId: number, since: number): number[] {
    return this.s.touchedJobs.all(batchId, since).map((row) => row.id);
  }

  /** A batch's images changed since `since` (a favourite, a download). */
  touchedImages(batchId: number, since: number): number[] {
    return this.s.touchedImages.all(batchId, since).map((row) => row.id);
  }

  /** Changes when another connection (another process) committed to the database. */
  dataVersion(): number {
    return this.s.dataVersion.get()!.data_version;
  }

  read(): ChangeMarks {
    const map = (rows: MarkRow[]) => new Map(rows.map((row) => [row.id, String(row.mark)]));
    return {
      batches: map(this.s.batches.all()),
      counts: map(this.s.counts.all()),
      held: map(this.s.held.all()),
      jobOrder: map(this.s.jobOrder.all()),
      favorites: map(this.s.favorites.all()),
    };
  }
}

/** The batches whose mark differs between two reads (added and removed ones included). */
export function changedKeys(before: Map<number, string>, after: Map<number, string>): number[] {
  const changed: number[] = [];
  for (const [id, mark] of after) if (before.get(id) !== mark) changed.push(id);
  for (const id of before.keys()) if (!after.has(id)) changed.push(id);
  return changed;
}
