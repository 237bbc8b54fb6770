import type { Database } from 'better-sqlite3';
import { batchDirName, pathKey } from '../library/naming.ts';
import type { JobRepository, NewJob } from './job-repository.ts';
import { toBatch, type Batch } from './rows.ts';
import { transact } from './transaction.ts';
import { prepareOnUse } from './prepare-on-use.ts';

export interface NewBatch {
  name: string;
  settings?: Record<string, unknown>;
  /** Where the prompts came from (a file name), for the person. */
  source?: string | null;
  priority?: number;
  /** Create it paused (composed now, run later). */
  paused?: boolean;
}

/** Jobs handed to the inserter at once while streaming: bounded memory, few statements. */
const STREAM_CHUNK = 5_000;

/** Every statement of BatchRepository (prepared on first use: prepare-on-use.ts). */
function batchStatements(db: Database) {
  return {
    insert: prepareOnUse(
      db,
      `INSERT INTO batches (name, dir_name, dir_key, created_at, settings, source, priority, paused)
       VALUES (@name, @dirName, @dirKey, @now, @settings, @source, @priority, @paused)`,
    ),
    dirTaken: prepareOnUse(db, 'SELECT 1 FROM batches WHERE dir_key = ?'),
    setJobCount: prepareOnUse(db, 'UPDATE batches SET job_count = ? WHERE id = ?'),
    get: prepareOnUse<unknown[], Record<string, unknown>>(db, 'SELECT * FROM batches WHERE id = ?'),
    list: prepareOnUse<unknown[], Record<string, unknown>>(
      db,
      'SELECT * FROM batches ORDER BY id DESC',
    ),
    setPaused: prepareOnUse(db, 'UPDATE batches SET paused = ?, pause_reason = ? WHERE id = ?'),
    setPriority: prepareOnUse(db, 'UPDATE batches SET priority = ? WHERE id = ?'),
    rename: prepareOnUse(db, 'UPDATE batches SET name = ? WHERE id = ?'),
    delete: prepareOnUse(db, 'DELETE FROM batches WHERE id = ?'),
    // one statement: a claim by another connection lands wholly before or after it
    deleteUnstarted: prepareOnUse(
      db,
      `DELETE FROM batches WHERE id = @id
         AND NOT EXISTS (SELECT 1 FROM batch_state_counts
           WHERE batch_id = @id AND state <> 'queued' AND n > 0)`,
    ),
  };
}

type BatchStatements = ReturnType<typeof batchStatements>;

export class BatchRepository {
  private readonly db: Database;
  private readonly jobs: JobRepository;
  private readonly s: BatchStatements;

  constructor(db: Database, jobs: JobRepository) {
    this.db = db;
    this.jobs = jobs;
    this.s = batchStatements(db);
  }

  /**
   * Creates a batch and all its jobs (`queued`, rows numbered from 1) in one transaction:
   * a bad job throws and nothing is created. `jobs` may be a lazy iterable, so a huge sheet
   * is never held in memory whole. The batch gets a folder name unique in the library.
   */
  create(batch: NewBatch, jobs: Iterable<NewJob>, now: number): Batch {
    return transact(
      this.db,
      () => {
        const dirName = batchDirName(batch.name, (candidate) =>
          this.ownsFolder(pathKey(candidate)),
        );
        const id = Number(
          this.s.insert.run({
            name: batch.name,
            dirName,
            dirKey: pathKey(dirName),
            now,
            settings: JSON.stringify(batch.settings ?? {}),
            source: batch.source ?? null,
            priority: batch.priority ?? 0,
            paused: batch.paused ? 1 : 0,
          }).lastInsertRowid,
        );
        const { count } = this.jobs.insertJobs(id, jobs, now);
        this.s.setJobCount.run(count, id);
        return this.get(id)!;
      },
      'immediate',
    );
  }

  /**
   * create() for jobs that arrive asynchronously (a prompt file streamed from disk): one
   * transaction held across the whole stream, so a failure anywhere leaves nothing behind.
   * Nothing else may write on this connection until it resolves.
   */
  async createStreaming(batch: NewBatch, jobs: AsyncIterable<NewJob>, now: number): Promise<Batch> {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const { id } = this.create(batch, [], now);
      let position = 0;
      let chunk: NewJob[] = [];
      const flush = () => {
        this.jobs.insertJobs(id, chunk, now);
        chunk = [];
      };
      for await (const job of jobs) {
        chunk.push({ ...job, position: ++position });
        if (chunk.length === STREAM_CHUNK) flush();
      }
      if (chunk.length > 0) flush();
      this.s.setJobCount.run(position, id);
      this.db.exec('COMMIT');
      return this.get(id)!;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  get(id: number): Batch | undefined {
    const row = this.s.get.get(id);
    return row && toBatch(row);
  }

  list(): Batch[] {
    return this.s.list.all().map(toBatch);
  }

  /** Whether a batch's folder has this pathKey (the library's other folders avoid it). */
  ownsFolder(dirKey: string): boolean {
    return Boolean(this.s.dirTaken.get(dirKey));
  }

  /** A paused batch keeps its jobs queued; the scheduler skips it until resumed. */
  setPaused(id: number, paused: boolean, reason: string | null = null): void {
    this.expectOne(this.s.setPaused.run(paused ? 1 : 0, paused ? reason : null, id).changes, id);
  }

  setPriority(id: number, priority: number): void {
    this.expectOne(this.s.setPriority.run(priority, id).changes, id);
  }

  /** Renames for display; the folder on disk keeps its name. */
  rename(id: number, name: string): void {
    this.expectOne(this.s.rename.run(name, id).changes, id);
  }

  /** Deletes the batch's records (jobs, attempts, images rows); files on disk stay. */
  delete(id: number): void {
    this.expectOne(this.s.delete.run(id).changes, id);
  }

  /**
   * Deletes a batch none of whose jobs has left `queued` (an import to undo); false, and
   * nothing deleted, once one has.
   */
  deleteUnstarted(id: number): boolean {
    if (this.s.deleteUnstarted.run({ id }).changes === 1) return true;
    if (!this.get(id)) throw new Error(`Batch ${id} does not exist.`);
    return false;
  }

  private expectOne(changes: number, id: number): void {
    if (changes !== 1) throw new Error(`Batch ${id} does not exist.`);
  }
}
