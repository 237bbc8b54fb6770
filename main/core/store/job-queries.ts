import type { Database } from 'better-sqlite3';
import type { FailureKind } from '../../../shared/jobs/outcomes.ts';
import { JOB_STATES, type JobState } from '../../../shared/jobs/states.ts';
import { toFtsQuery } from './fts-query.ts';
import { NOT_AN_IMAGE_CODE } from './image-repository.ts';
import { toJob, toTransition, type Job, type Transition } from './rows.ts';
import { oneRow } from './one-row.ts';
import { sqlOn } from './prepare-on-use.ts';

export type StateCounts = Record<JobState, number>;

export interface FailedQuery {
  batchId?: number;
  /** Only these kinds (e.g. ['uncertain'] for `retry --uncertain`). */
  kinds?: FailureKind[];
  /** Keyset paging: jobs with a larger id. */
  afterId?: number;
  limit?: number;
}

/** Partial successes no top-up has asked for yet: what `retry --partial` would ask for. */
export interface PartialSuccessCounts {
  jobs: number;
  /** Images they asked for and did not get back. */
  missingImages: number;
}

export interface PartialSuccessQuery {
  batchId?: number;
  /** Keyset paging: jobs with a larger id. */
  afterId?: number;
  limit?: number;
}

/**
 * A job that succeeded with fewer images than asked and has no top-up yet (a top-up is a job
 * whose retry_of names it; createTopUp allows one). A top-up's own outcome counts like any job's.
 */
const PARTIAL_NOT_TOPPED_UP = `j.state = 'succeeded' AND j.returned_n < j.n
  AND NOT EXISTS (SELECT 1 FROM jobs AS t WHERE t.retry_of = j.id)`;

type StateCount = { state: JobState; n: number };

/** Every statement of JobQueries (prepared on first use: prepare-on-use.ts). */
function queryStatements(db: Database) {
  const sql = sqlOn(db);
  return {
    get: sql<Record<string, unknown>>('SELECT * FROM jobs WHERE id = ?'),
    counts: sql<StateCount>('SELECT state, n FROM batch_state_counts WHERE batch_id = ?'),
    countsAll: sql<StateCount>('SELECT state, sum(n) AS n FROM batch_state_counts GROUP BY state'),
    // jobs_video_by_batch: the video jobs only, never the batch's image jobs
    videoCount: sql<{ n: number }>(
      "SELECT count(*) AS n FROM jobs WHERE batch_id = ? AND kind = 'video'",
    ),
    videoCountAll: sql<{ n: number }>("SELECT count(*) AS n FROM jobs WHERE kind = 'video'"),
    running: sql<Record<string, unknown>>(`SELECT * FROM jobs WHERE state = 'running' ORDER BY id`),
    failed: sql<Record<string, unknown>>(
      `SELECT * FROM jobs
       WHERE state = 'failed' AND id > @afterId
         AND (@kinds IS NULL OR failure_kind IN (SELECT value FROM json_each(@kinds)))
         AND (@batchId IS NULL OR batch_id = @batchId)
       ORDER BY id LIMIT @limit`,
    ),
    inBatch: sql<Record<string, unknown>>(
      `SELECT * FROM jobs WHERE batch_id = ? AND (position, id) > (?, ?)
       ORDER BY position, id LIMIT ?`,
    ),
    // no index on returned_n: these read the batch's jobs (or every job), once per summary
    partialInBatch: sql<PartialSuccessCounts>(
      `SELECT count(*) AS jobs, coalesce(sum(j.n - j.returned_n), 0) AS missingImages
       FROM jobs AS j WHERE j.batch_id = ? AND ${PARTIAL_NOT_TOPPED_UP}`,
    ),
    partialAll: sql<PartialSuccessCounts>(
      `SELECT count(*) AS jobs, coalesce(sum(j.n - j.returned_n), 0) AS missingImages
       FROM jobs AS j WHERE ${PARTIAL_NOT_TOPPED_UP}`,
    ),
    // through jobs_batch_state: the batch's jobs still to send, by model
    leftByModel: sql<{ model: string; jobs: number; images: number }>(
      `SELECT model, count(*) AS jobs, sum(n) AS images FROM jobs
       WHERE batch_id = ? AND state IN ('queued', 'retrying') GROUP BY model`,
    ),
    // through the jobs_retry_of partial index: top-ups only
    topUps: sql<{ n: number }>(
      `SELECT count(*) AS n FROM jobs
       WHERE retry_of IS NOT NULL AND (@batchId IS NULL OR batch_id = @batchId)`,
    ),
    // through the failed downloads' index: jobs with an image whose link gave no image
    notImageList: sql<Record<string, unknown>>(
      `SELECT DISTINCT j.* FROM images AS i JOIN jobs AS j ON j.id = i.job_id
       WHERE i.download_state = 'failed' AND i.failure_code = '${NOT_AN_IMAGE_CODE}'
         AND j.id > @afterId AND (@batchId IS NULL OR j.batch_id = @batchId)
         AND j.state = 'succeeded'
         AND NOT EXISTS (SELECT 1 FROM jobs AS t WHERE t.retry_of = j.id)
       ORDER BY j.id LIMIT @limit`,
    ),
    partialList: sql<Record<string, unknown>>(
      `SELECT * FROM jobs AS j
       WHERE j.id > @afterId AND (@batchId IS NULL OR j.batch_id = @batchId)
         AND ${PARTIAL_NOT_TOPPED_UP}
       ORDER BY j.id LIMIT @limit`,
    ),
    transitions: sql<Record<string, unknown>>(
      'SELECT * FROM job_transitions WHERE job_id = ? ORDER BY id',
    ),
    transitionsSince: sql<Record<string, unknown>>(
      'SELECT * FROM job_transitions WHERE id > ? ORDER BY id LIMIT ?',
    ),
    search: sql<Record<string, unknown>>(
      `SELECT j.* FROM jobs_fts AS f JOIN jobs AS j ON j.id = f.rowid
       WHERE jobs_fts MATCH @query AND f.rowid < @beforeId
         AND (@batchId IS NULL OR j.batch_id = @batchId)
       ORDER BY f.rowid DESC LIMIT @limit`,
    ),
  };
}

type QueryStatements = ReturnType<typeof queryStatements>;

/** Reads about jobs: one job, counts, lists for recovery and retries, the log, search. */
export class JobQueries {
  protected readonly db: Database;
  private readonly q: QueryStatements;

  constructor(db: Database) {
    this.db = db;
    this.q = queryStatements(db);
  }

  get(id: number): Job | undefined {
    const row = this.q.get.get(id);
    return row && toJob(row);
  }

  /** Counts per state for a batch (or all batches): read from counters, never a scan. */
  counts(batchId?: number): StateCounts {
    const counts = Object.fromEntries(JOB_STATES.map((state) => [state, 0])) as StateCounts;
    const rows = batchId === undefined ? this.q.countsAll.all() : this.q.counts.all(batchId);
    for (const { state, n } of rows) counts[state] = n;
    return counts;
  }

  /** How many of a batch's jobs (or all jobs), retries included, make videos. */
  videoCount(batchId?: number): number {
    const row = batchId === undefined ? this.q.videoCountAll.get() : this.q.videoCount.get(batchId);
    return row?.n ?? 0;
  }

  /** Jobs left running: after a crash, what recovery must settle. */
  listRunning(): Job[] {
    return this.q.running.all().map(toJob);
  }

  listFailed(query: FailedQuery = {}): Job[] {
    return this.q.failed
      .all({
        afterId: query.afterId ?? 0,
        kinds: query.kinds ? JSON.stringify(query.kinds) : null,
        batchId: query.batchId ?? null,
        limit: query.limit ?? 100,
      })
      .map(toJob);
  }

  /** Partial successes not topped up yet, in a batch or all batches, and the images they miss. */
  partialSuccesses(batchId?: number): PartialSuccessCounts {
    // an aggregate: always one row
    return batchId === undefined
      ? oneRow(this.q.partialAll)
      : oneRow(this.q.partialInBatch, batchId);
  }

  /** A batch's jobs still to send (queued or retrying), by model: what resuming it starts. */
  workLeftByModel(batchId: number): Record<string, { jobs: number; images: number }> {
    return Object.fromEntries(
      this.q.leftByModel.all(batchId).map(({ model, jobs, images }) => [model, { jobs, images }]),
    );
  }

  /** Top-up jobs (asking for a partial success's missing images), in a batch or all batches. */
  countTopUps(batchId?: number): number {
    return oneRow(this.q.topUps, { batchId: batchId ?? null }).n;
  }

  /** The jobs partialSuccesses counts, oldest first; pass the last id as `afterId` for the next. */
  listPartialSuccesses(query: PartialSuccessQuery = {}): Job[] {
    return this.q.partialList
      .all({
        afterId: query.afterId ?? 0,
        batchId: query.batchId ?? null,
        limit: query.limit ?? 100,
      })
      .map(toJob);
  }

  /**
   * Succeeded jobs with an image whose link gave something that is not an image, no top-up
   * yet: what `retry --failed` asks again. Oldest first; pass the last id as `afterId`.
   */
  listWithNotImages(query: PartialSuccessQuery = {}): Job[] {
    return this.q.notImageList
      .all({
        afterId: query.afterId ?? 0,
        batchId: query.batchId ?? null,
        limit: query.limit ?? 100,
      })
      .map(toJob);
  }

  /** A page of a batch in row order; pass the last job's position and id for the next. */
  listInBatch(batchId: number, after = { position: 0, id: 0 }, limit = 100): Job[] {
    return this.q.inBatch.all(batchId, after.position, after.id, limit).map(toJob);
  }

  transitionsOf(id: number): Transition[] {
    return this.q.transitions.all(id).map(toTransition);
  }

  /**
   * The log after a cursor (the last id seen), oldest first: what changed since the last
   * progress event, without polling every job.
   */
  transitionsSince(afterId: number, limit = 1_000): Transition[] {
    return this.q.transitionsSince.all(afterId, limit).map(toTransition);
  }

  /** Prompt search, newest first; pass the last id as `beforeId` for the next page. */
  searchPrompts(
    text: string,
    options: { limit?: number; beforeId?: number; batchId?: number } = {},
  ): Job[] {
    const query = toFtsQuery(text);
    if (query === null) return [];
    return this.q.search
      .all({
        query,
        beforeId: options.beforeId ?? Number.MAX_SAFE_INTEGER,
        batchId: options.batchId ?? null,
        limit: options.limit ?? 100,
      })
      .map(toJob);
  }

  protected require(id: number): Job {
    const job = this.get(id);
    if (!job) throw noSuchJob(id);
    return job;
  }
}

export function noSuchJob(id: number): Error {
  return new Error(`Job ${id} does not exist (it may have been deleted with its batch).`);
}
