import type { Database, Statement } from 'better-sqlite3';
import { isFailureKind, type FailureKind } from '../../../shared/jobs/outcomes.ts';
import type { JobFacts } from '../../../shared/jobs/eligibility.ts';
import type { JobState } from '../../../shared/jobs/states.ts';
import { NOT_AN_IMAGE_CODE } from './image-repository.ts';
import { toAttempt, toBatch, toJob, type Attempt, type Batch, type Job } from './rows.ts';
import { sqlOn } from './prepare-on-use.ts';

/** A transition with its job's batch: what the event hub needs to say which counts changed. */
export interface BatchTransition {
  id: number;
  jobId: number;
  batchId: number;
  to: JobState;
}

export interface JobIdQuery {
  batchId: number;
  states?: readonly JobState[];
  failureKinds?: readonly FailureKind[];
  /** After this (position, id); from the start when absent. */
  after?: { position: number; id: number };
  limit: number;
}

// (`?+0` / `@limit + 0` in a LIMIT: see SCHEDULER_QUERIES, the planner must not pick an index for it)
function pageStatements(db: Database) {
  const sql = sqlOn(db);
  return {
    batchesPage: sql<Record<string, unknown>>(
      'SELECT * FROM batches WHERE id < ? ORDER BY id DESC LIMIT ?+0',
    ),
    requestsSent: sql<{ n: number }>(
      `SELECT count(*) AS n FROM attempts
       WHERE job_id IN (SELECT id FROM jobs WHERE batch_id = ?)`,
    ),
    failureCounts: sql<{ kind: string | null; n: number }>(
      `SELECT failure_kind AS kind, count(*) AS n FROM jobs
       WHERE state = 'failed' AND (@batchId IS NULL OR batch_id = @batchId) GROUP BY 1`,
    ),
    jobsByIds: sql<Record<string, unknown>>(
      'SELECT * FROM jobs WHERE id IN (SELECT value FROM json_each(?))',
    ),
    // by (job_id, idx), the images' unique key: a few rows per job
    failedDownloadsOf: sql<{ jobId: number; n: number }>(
      `SELECT job_id AS jobId, count(*) AS n FROM images
       WHERE job_id IN (SELECT value FROM json_each(?)) AND download_state = 'failed'
       GROUP BY job_id`,
    ),
    attemptsPage: sql<Record<string, unknown>>(
      'SELECT * FROM attempts WHERE job_id = ? AND id > ? ORDER BY id LIMIT ?+0',
    ),
    transitionsSince: sql<BatchTransition>(
      `SELECT t.id, t.job_id AS jobId, j.batch_id AS batchId, t.to_state AS "to"
       FROM job_transitions AS t JOIN jobs AS j ON j.id = t.job_id
       WHERE t.id > ? AND t.id <= ? ORDER BY t.id LIMIT ?+0`,
    ),
    batchPriorities: sql<{ high: number | null; low: number | null }>(
      'SELECT max(priority) AS high, min(priority) AS low FROM batches',
    ),
    jobPriorities: sql<{ high: number | null; low: number | null }>(
      `SELECT max(priority) AS high, min(priority) AS low FROM jobs
       WHERE batch_id IN (SELECT batch_id FROM jobs WHERE id IN (SELECT value FROM json_each(?)))`,
    ),
    jobFacts: sql<JobFactsRow>(
      `SELECT j.id, j.batch_id AS batchId, j.state, j.paused, j.failure_kind AS failureKind, j.n,
         j.returned_n AS returnedN,
         (SELECT count(*) FROM images AS i WHERE i.job_id = j.id AND i.download_state = 'failed'
            AND i.failure_code = '${NOT_AN_IMAGE_CODE}') AS notImages,
         (SELECT count(*) FROM images AS i WHERE i.job_id = j.id AND i.download_state = 'failed'
            AND i.failure_code IS NOT '${NOT_AN_IMAGE_CODE}') AS failedDownloads,
         EXISTS (SELECT 1 FROM jobs AS t WHERE t.retry_of = j.id) AS toppedUp
       FROM jobs AS j WHERE j.id IN (SELECT value FROM json_each(?))`,
    ),
    lastTransition: sql<{ id: number | null }>('SELECT max(id) AS id FROM job_transitions'),
    openBatches: sql<{ id: number }>(
      `SELECT batch_id AS id FROM batch_state_counts
         WHERE state IN ('queued', 'running', 'retrying') AND n > 0
       UNION
       SELECT batch_id FROM batch_download_counts
         WHERE state IN ('pending', 'downloading') AND n > 0`,
    ),
  };
}

/**
 * Reads the application's lists page by page, keyset only (never OFFSET, never a whole batch):
 * batches newest first, a batch's job ids by state, jobs by ids, a job's attempts.
 */
export class PageQueries {
  private readonly db: Database;
  private readonly s: ReturnType<typeof pageStatements>;
  /** One statement per filter shape: a shape's WHERE names only the filters present. */
  private readonly idStatements = new Map<string, Statement<unknown[], IdRow>>();
  private readonly countStatements = new Map<string, Statement<unknown[], { n: number }>>();

  constructor(db: Database) {
    this.db = db;
    this.s = pageStatements(db);
  }

  /** Batches with an id below `beforeId`, newest first. */
  batches(beforeId: number, limit: number): Batch[] {
    return this.s.batchesPage.all(beforeId, limit).map(toBatch);
  }

  /** Requests sent for a batch's jobs, retries included (one attempt each; a retry keeps them). */
  requestsSent(batchId: number): number {
    return this.s.requestsSent.get(batchId)?.n ?? 0;
  }

  /** Failed jobs by why they failed (the partial index keeps it a scan of the failures only). */
  failureCounts(batchId?: number): Partial<Record<FailureKind, number>> {
    const counts: Partial<Record<FailureKind, number>> = {};
    for (const { kind, n } of this.s.failureCounts.all({ batchId: batchId ?? null })) {
      const key: FailureKind = isFailureKind(kind) ? kind : 'internal';
      counts[key] = (counts[key] ?? 0) + n;
    }
    return counts;
  }

  /** A batch's job ids in run order, filtered by state and failure kind. */
  jobIds(query: JobIdQuery): Array<{ id: number; position: number }> {
    const shape = `${query.states ? 's' : ''}${query.failureKinds ? 'f' : ''}`;
    let statement = this.idStatements.get(shape);
    if (!statement) {
      statement = this.db.prepare<unknown[], IdRow>(
        `SELECT id, position FROM jobs WHERE ${jobWhere(query)}
           AND (position > @position OR (position = @position AND id > @id))
         ORDER BY position, id LIMIT @limit + 0`,
      );
      this.idStatements.set(shape, statement);
    }
    return statement.all({
      ...jobParams(query),
      position: query.after?.position ?? Number.MIN_SAFE_INTEGER,
      id: query.after?.id ?? 0,
      limit: query.limit,
    });
  }

  /** How many jobs `jobIds` pages through, all pages together. */
  countJobs(query: Omit<JobIdQuery, 'after' | 'limit'>): number {
    const shape = `${query.states ? 's' : ''}${query.failureKinds ? 'f' : ''}`;
    let statement = this.countStatements.get(shape);
    if (!statement) {
      statement = this.db.prepare<unknown[], { n: number }>(
        `SELECT count(*) AS n FROM jobs WHERE ${jobWhere(query)}`,
      );
      this.countStatements.set(shape, statement);
    }
    return statement.get(jobParams(query))!.n;
  }

  /** What the action table reads of each job of `ids` that exists (shared/jobs/eligibility.ts). */
  jobFacts(ids: readonly number[]): JobWithFacts[] {
    return this.s.jobFacts.all(JSON.stringify([...new Set(ids)])).map((row) => ({
      id: row.id,
      batchId: row.batchId,
      state: row.state,
      paused: row.paused === 1,
      failureKind: isFailureKind(row.failureKind) ? row.failureKind : null,
      n: row.n,
      returnedN: row.returnedN,
      notImages: row.notImages,
      failedDownloads: row.failedDownloads,
      toppedUp: row.toppedUp === 1,
    }));
  }

  /** Jobs in the order of `ids`; ids that no longer exist are left out. */
  jobsByIds(ids: readonly number[]): Job[] {
    const byId = new Map<number, Job>();
    for (const row of this.s.jobsByIds.all(JSON.stringify(ids))) {
      const job = toJob(row);
      byId.set(job.id, job);
    }
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** Of these jobs, how many images each has whose download failed (none: not in the map). */
  failedDownloadsOf(ids: readonly number[]): Map<number, number> {
    const rows = this.s.failedDownloadsOf.all(JSON.stringify(ids));
    return new Map(rows.map(({ jobId, n }) => [jobId, n]));
  }

  attempts(jobId: number, afterId: number, limit: number): Attempt[] {
    return this.s.attemptsPage.all(jobId, afterId, limit).map(toAttempt);
  }

  transitionsSince(
    afterId: number,
    limit: number,
    upTo = Number.MAX_SAFE_INTEGER,
  ): BatchTransition[] {
    return this.s.transitionsSince.all(afterId, upTo, limit);
  }

  /** The highest and lowest batch priority: "front" goes above, "back" below. */
  batchPriorities(): { high: number; low: number } {
    const row = this.s.batchPriorities.get()!;
    return { high: row.high ?? 0, low: row.low ?? 0 };
  }

  /** The same, over the jobs of the batches these jobs belong to. */
  jobPriorities(ids: readonly number[]): { high: number; low: number } {
    const row = this.s.jobPriorities.get(JSON.stringify(ids))!;
    return { high: row.high ?? 0, low: row.low ?? 0 };
  }

  lastTransitionId(): number {
    return this.s.lastTransition.get()?.id ?? 0;
  }

  /** Batches with jobs to run or images to download. */
  openBatches(): number[] {
    return this.s.openBatches.all().map((row) => row.id);
  }
}

type IdRow = { id: number; position: number };
type JobFactsRow = {
  id: number;
  batchId: number;
  state: JobState;
  paused: number;
  failureKind: string | null;
  n: number;
  returnedN: number | null;
  notImages: number;
  failedDownloads: number;
  toppedUp: number;
};
/** A job's id and batch, and what the action table reads of it. */
export type JobWithFacts = JobFacts & { id: number; batchId: number };

function jobWhere(query: Pick<JobIdQuery, 'states' | 'failureKinds'>): string {
  const terms = ['batch_id = @batchId'];
  if (query.states) terms.push('state IN (SELECT value FROM json_each(@states))');
  if (query.failureKinds) {
    terms.push(`state = 'failed' AND failure_kind IN (SELECT value FROM json_each(@kinds))`);
  }
  return terms.join(' AND ');
}

function jobParams(query: Pick<JobIdQuery, 'batchId' | 'states' | 'failureKinds'>) {
  return {
    batchId: query.batchId,
    ...(query.states ? { states: JSON.stringify(query.states) } : {}),
    ...(query.failureKinds ? { kinds: JSON.stringify(query.failureKinds) } : {}),
  };
}
