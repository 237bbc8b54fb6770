import type { Database } from 'better-sqlite3';
import type { JobKind } from './rows.ts';
import { transact } from './transaction.ts';
import { oneRow } from './one-row.ts';
import { sqlOn } from './prepare-on-use.ts';

/** One job to insert; position defaults to the next row of the batch. */
export interface NewJob {
  prompt: string;
  model: string;
  kind?: JobKind;
  name?: string | null;
  size?: string | null;
  n?: number;
  seed?: number | null;
  params?: Record<string, unknown>;
  priority?: number;
  position?: number;
}

const INSERT_COLUMNS = [
  'batch_id',
  'position',
  'priority',
  'kind',
  'prompt',
  'name',
  'model',
  'size',
  'n',
  'seed',
  'params',
  'retry_of',
  'image_offset',
  'created_at',
  'updated_at',
] as const;
// rows per INSERT statement: a multi-row insert is twice as fast as one row per call
const INSERT_CHUNK = 100;

/** Every statement of JobInserter (prepared on first use: prepare-on-use.ts). */
function insertStatements(db: Database) {
  const sql = sqlOn(db);
  const cols = INSERT_COLUMNS.join(', ');
  const row = `(${INSERT_COLUMNS.map(() => '?').join(', ')})`;
  return {
    insertOne: sql(`INSERT INTO jobs (${cols}) VALUES ${row}`),
    insertChunk: sql(
      `INSERT INTO jobs (${cols}) VALUES ${Array(INSERT_CHUNK).fill(row).join(', ')}`,
    ),
    maxId: sql<{ id: number }>('SELECT coalesce(max(id), 0) AS id FROM jobs'),
    indexPrompts: sql(
      'INSERT INTO jobs_fts (rowid, prompt) SELECT id, prompt FROM jobs WHERE id > ?',
    ),
    addCount: sql(
      `INSERT INTO batch_state_counts (batch_id, state, n) VALUES (?, 'queued', ?)
       ON CONFLICT (batch_id, state) DO UPDATE SET n = n + excluded.n`,
    ),
  };
}

type InsertStatements = ReturnType<typeof insertStatements>;

/**
 * The one way jobs enter the database: multi-row inserts, then their prompts indexed and
 * their batch's counts raised with one statement each (per-row triggers cost far more).
 */
export class JobInserter {
  private readonly db: Database;
  private readonly s: InsertStatements;

  constructor(db: Database) {
    this.db = db;
    this.s = insertStatements(db);
  }

  /**
   * Inserts jobs into a batch in the caller's transaction (or its own), in chunks, then
   * indexes their prompts and adds them to the batch's counts. A bad job throws and, inside
   * a transaction, nothing is inserted. Returns how many were inserted and the first id.
   */
  insertJobs(
    batchId: number,
    jobs: Iterable<NewJob>,
    now: number,
    origin: { retryOf?: number; imageOffset?: number } = {},
  ): { count: number; firstId: number } {
    return transact(this.db, () => {
      const before = oneRow(this.s.maxId).id;
      let count = 0;
      let chunk: unknown[] = [];
      for (const job of jobs) {
        count++;
        chunk.push(...this.values(batchId, job, count, now, origin));
        if (count % INSERT_CHUNK === 0) {
          this.s.insertChunk.run(chunk);
          chunk = [];
        }
      }
      const width = INSERT_COLUMNS.length;
      for (let i = 0; i < chunk.length; i += width) this.s.insertOne.run(chunk.slice(i, i + width));
      if (count > 0) {
        this.s.indexPrompts.run(before);
        this.s.addCount.run(batchId, count);
      }
      return { count, firstId: before + 1 };
    });
  }

  private values(
    batchId: number,
    job: NewJob,
    row: number,
    now: number,
    origin: { retryOf?: number; imageOffset?: number },
  ): unknown[] {
    if (typeof job.prompt !== 'string' || job.prompt.trim() === '') {
      throw new Error(`Job ${row} has no prompt: every job needs a non-empty prompt.`);
    }
    if (typeof job.model !== 'string' || job.model.trim() === '') {
      throw new Error(`Job ${row} has no model: set one per row or for the whole batch.`);
    }
    return [
      batchId,
      job.position ?? row,
      job.priority ?? 0,
      job.kind ?? 'image',
      job.prompt,
      job.name ?? null,
      job.model,
      job.size ?? null,
      job.n ?? 1,
      job.seed ?? null,
      JSON.stringify(job.params ?? {}),
      origin.retryOf ?? null,
      origin.imageOffset ?? 0,
      now,
      now,
    ];
  }
}
