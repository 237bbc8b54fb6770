import type { Database } from 'better-sqlite3';
import type { FailureKind } from '../../../shared/jobs/outcomes.ts';
import {
  assertTransition,
  JOB_STATES,
  statesLeadingTo,
  type JobState,
} from '../../../shared/jobs/states.ts';
import type { EditRepository } from './edit-repository.ts';
import { NOT_AN_IMAGE_CODE } from './image-repository.ts';
import { JobInserter, type NewJob } from './job-insert.ts';
import { JobQueries, noSuchJob } from './job-queries.ts';
import { toJob, type Job } from './rows.ts';
import { transact } from './transaction.ts';
import { oneRow } from './one-row.ts';
import { sqlOn } from './prepare-on-use.ts';

export type { NewJob } from './job-insert.ts';
export type { StateCounts } from './job-queries.ts';

/**
 * The scheduler's reads, exported so a test can check their query plans use the indexes.
 *
 * `?+0` where a plain `?` would do: SQLite's planner reads the bound value of a bare parameter
 * in a LIMIT, or in a term an ORDER BY index is chosen on, and then prepares the statement again
 * every time a new value is bound, which costs many times the query itself, at every claim. An
 * expression keeps the same plan without that.
 */
export const SCHEDULER_QUERIES = {
  // the correlated batch lookup keeps SQLite walking the due-time index, not the batches
  dueRetrying: `SELECT id FROM jobs AS j
    WHERE state = 'retrying' AND paused = 0 AND next_attempt_at <= ?
      AND (SELECT paused FROM batches WHERE id = j.batch_id) = 0
    ORDER BY next_attempt_at, id LIMIT ?+0`,
  runnableBatches: `SELECT b.id, b.priority FROM batches AS b
    JOIN batch_state_counts AS c ON c.batch_id = b.id AND c.state = 'queued' AND c.n > 0
    WHERE b.paused = 0 ORDER BY b.priority DESC, b.id`,
  queuedInBatch: `SELECT id, priority FROM jobs
    WHERE batch_id = ?+0 AND state = 'queued' AND paused = 0
    ORDER BY priority DESC, id LIMIT ?+0`,
} as const;

/** For each state, the only state that leads to it, when there is just one. */
const SOLE_SOURCE = Object.fromEntries(
  JOB_STATES.map((to) => {
    const sources = statesLeadingTo(to);
    return [to, sources.length === 1 ? sources[0]! : null];
  }),
) as Record<JobState, JobState | null>;

const inList = (states: readonly JobState[]) => states.map((s) => `'${s}'`).join(', ');

/**
 * For a requeue: a video task that failed (or was canceled) must be submitted afresh, so its
 * id goes; an uncertain one may still finish, so "retry anyway" polls it again. SET reads the
 * row as it was, so failure_kind here is the old one.
 */
const FORGET_VIDEO_TASK = [
  'video_task_id',
  'video_task_status',
  'video_task_progress',
  'video_platform_status',
  'video_submitted_at',
  'video_checked_at',
  'video_check_request_id',
  'video_overdue_at',
]
  .map((column) => `${column} = CASE WHEN failure_kind = 'uncertain' THEN ${column} END`)
  .join(', ');

/** Every statement of JobRepository (prepared on first use: prepare-on-use.ts). */
function jobStatements(db: Database) {
  const sql = sqlOn(db);
  return {
    topUpOf: sql<{ id: number }>('SELECT id FROM jobs WHERE retry_of = ? LIMIT 1'),
    notImagesOf: sql<{ id: number }>(
      `SELECT id FROM images WHERE job_id = ? AND download_state = 'failed'
         AND failure_code = '${NOT_AN_IMAGE_CODE}'`,
    ),
    highestImageIdx: sql<{ idx: number | null }>(
      'SELECT max(idx) AS idx FROM images WHERE job_id = ?',
    ),
    dropImage: sql('DELETE FROM images WHERE id = ?'),
    lowerReturned: sql('UPDATE jobs SET returned_n = ? WHERE id = ?'),
    stateOf: sql('SELECT state, failure_kind FROM jobs WHERE id = ?'),
    queuePaused: sql<{ paused: number }>('SELECT paused FROM queue_state WHERE id = 1'),
    dueRetrying: sql<{ id: number }>(SCHEDULER_QUERIES.dueRetrying),
    // skips paused batches as dueRetrying does: else the scheduler wakes for a retry it
    // will not claim, again and again
    nextRetryAt: sql<{ at: number | null }>(
      `SELECT min(next_attempt_at) AS at FROM jobs AS j
       WHERE state = 'retrying' AND paused = 0
         AND (SELECT paused FROM batches WHERE id = j.batch_id) = 0`,
    ),
    runnableBatches: sql<{ id: number; priority: number }>(SCHEDULER_QUERIES.runnableBatches),
    queuedInBatch: sql<{ id: number; priority: number }>(SCHEDULER_QUERIES.queuedInBatch),
    claim: sql<Record<string, unknown>>(
      `UPDATE jobs SET state = 'running', state_reason = @reason, tries = tries + 1,
         next_attempt_at = NULL, started_at = coalesce(started_at, @now), updated_at = @now
       WHERE id = @id AND state = @from RETURNING *`,
    ),
    succeed: sql(
      `UPDATE jobs SET state = 'succeeded', state_reason = @reason, returned_n = @returnedN,
         failure_kind = NULL, error_code = NULL, error_message = NULL,
         finished_at = @now, updated_at = @now
       WHERE id = @id AND state = @from RETURNING *`,
    ),
    scheduleRetry: sql(
      `UPDATE jobs SET state = 'retrying', state_reason = @reason,
         next_attempt_at = @nextAttemptAt, error_code = @errorCode,
         error_message = @errorMessage, updated_at = @now
       WHERE id = @id AND state = @from RETURNING *`,
    ),
    fail: sql(
      `UPDATE jobs SET state = 'failed', state_reason = @reason, failure_kind = @kind,
         error_code = @errorCode, error_message = @errorMessage, next_attempt_at = NULL,
         finished_at = @now, updated_at = @now
       WHERE id = @id AND state = @from RETURNING *`,
    ),
    // unsent or refused before billing: the try does not count against the job; a gateway's
    // refusal stays on the job as its last error (the queue shows it there)
    handBack: sql(
      `UPDATE jobs SET state = 'queued', state_reason = @reason, tries = max(tries - 1, 0),
         error_code = coalesce(@errorCode, error_code),
         error_message = coalesce(@errorMessage, error_message), updated_at = @now
       WHERE id = @id AND state = @from RETURNING *`,
    ),
    cancel: sql(
      `UPDATE jobs SET state = 'canceled', state_reason = @reason, next_attempt_at = NULL,
         finished_at = @now, updated_at = @now
       WHERE id = @id AND state = @from RETURNING *`,
    ),
    requeue: sql(
      `UPDATE jobs SET state = 'queued', state_reason = @reason, tries = 0, paused = 0,
         failure_kind = NULL, error_code = NULL, error_message = NULL, ${FORGET_VIDEO_TASK},
         next_attempt_at = NULL, finished_at = NULL, updated_at = @now
       WHERE id = @id AND state = @from RETURNING *`,
    ),
    // bulk cancel, first in chunks through the queued index: canceled rows leave it, so
    // each chunk costs O(limit) however big the batch
    cancelQueuedChunk: sql(
      `UPDATE jobs SET state = 'canceled', state_reason = @reason, next_attempt_at = NULL,
         finished_at = @now, updated_at = @now
       WHERE id IN (SELECT id FROM jobs
         WHERE batch_id = @batchId AND state = 'queued' AND paused = 0 LIMIT @limit + 0)`,
    ),
    // then the rest (paused and retrying jobs, few), source states from the shared table
    cancelRest: sql(
      `UPDATE jobs SET state = 'canceled', state_reason = @reason, next_attempt_at = NULL,
         finished_at = @now, updated_at = @now
       WHERE batch_id = @batchId
         AND state IN (${inList(statesLeadingTo('canceled').filter((s) => s !== 'running'))})`,
    ),
    requeueFailed: sql(
      `UPDATE jobs SET state = 'queued', state_reason = @reason, tries = 0, paused = 0,
         failure_kind = NULL, error_code = NULL, error_message = NULL, ${FORGET_VIDEO_TASK},
         next_attempt_at = NULL, finished_at = NULL, updated_at = @now
       WHERE state = 'failed' AND (failure_kind IS 'uncertain') = @uncertain
         AND (@batchId IS NULL OR batch_id = @batchId)`,
    ),
    setPriority: sql('UPDATE jobs SET priority = ?, updated_at = ? WHERE id = ?'),
    setPaused: sql('UPDATE jobs SET paused = ?, updated_at = ? WHERE id = ?'),
    // the first record of a task is its submission; overdue keeps the time it began
    setVideoTask: sql(
      `UPDATE jobs SET video_task_id = @taskId, video_task_status = @status,
         video_task_progress = @progress, video_platform_status = @platformStatus,
         video_submitted_at = CASE WHEN video_task_id IS @taskId
           THEN coalesce(video_submitted_at, @now) ELSE @now END,
         video_checked_at = @now,
         video_check_request_id = @checkRequestId,
         video_overdue_at = CASE WHEN @overdue THEN coalesce(video_overdue_at, @now) END,
         updated_at = @now
       WHERE id = @id AND state = 'running'`,
    ),
    runningInBatch: sql<{ id: number }>(
      `SELECT id FROM jobs WHERE state = 'running' AND batch_id = ? ORDER BY id`,
    ),
  };
}

type JobStatements = ReturnType<typeof jobStatements>;

/**
 * Jobs: the scheduler's claim and every state change (reads are in JobQueries). Each change
 * checks the shared transition table first (a clear error), runs in a transaction, and
 * compares-and-sets the state; the database's own guard refuses anything the table does not
 * allow and logs every change in job_transitions.
 */
export class JobRepository extends JobQueries {
  private readonly inserter: JobInserter;
  private readonly s: JobStatements;
  private readonly edits: EditRepository;

  constructor(db: Database, edits: EditRepository) {
    super(db);
    this.edits = edits;
    this.inserter = new JobInserter(db);
    this.s = jobStatements(db);
  }

  /** See JobInserter.insertJobs: the only way jobs enter the database. */
  insertJobs(
    batchId: number,
    jobs: Iterable<NewJob>,
    now: number,
    origin: { retryOf?: number; imageOffset?: number } = {},
  ): { count: number; firstId: number } {
    return this.inserter.insertJobs(batchId, jobs, now, origin);
  }

  /**
   * A new job asking for the images a succeeded job lacks: those a partial success did not
   * return, and those whose link gave something that is not an image. Same prompt and
   * parameters, same row; the unusable image rows are dropped (the attempt log keeps their
   * story) and the new images are numbered after every number the origin used. A top-up
   * of an edit edits the same picture with the same mask.
   */
  createTopUp(originId: number, now: number): Job {
    return transact(this.db, () => {
      const origin = this.require(originId);
      const returned = origin.returnedN ?? origin.n;
      const notImages = this.s.notImagesOf.all(originId).map((row) => row.id);
      const missing = origin.n - returned + notImages.length;
      if (origin.state !== 'succeeded' || missing <= 0) {
        throw new Error(
          `Job ${originId} cannot be topped up: only a succeeded job that lacks images can be ` +
            `(it is ${origin.state}, ${returned} of ${origin.n} returned, ` +
            `${notImages.length} not an image).`,
        );
      }
      const existing = this.s.topUpOf.get(originId);
      if (existing) {
        throw new Error(
          `Job ${originId} was already topped up by job ${existing.id}: retry that one instead.`,
        );
      }
      const highest = oneRow(this.s.highestImageIdx, originId).idx;
      for (const id of notImages) this.s.dropImage.run(id);
      if (notImages.length > 0) this.s.lowerReturned.run(returned - notImages.length, originId);
      const { firstId } = this.insertJobs(
        origin.batchId,
        [{ ...origin, n: missing, priority: origin.priority }],
        now,
        { retryOf: origin.id, imageOffset: Math.max(origin.imageOffset + returned, highest ?? 0) },
      );
      this.edits.copy(origin.id, firstId);
      return this.require(firstId);
    });
  }

  /**
   * Moves up to `limit` runnable jobs to `running` and returns them: due `retrying` jobs
   * first (by due time), then `queued` ones by batch priority, job priority, then insertion
   * order. Skips a paused queue, paused batches and paused jobs. Reads only what it takes:
   * one index seek per runnable batch, never a whole batch. `admit` (the budget) may refuse a
   * job before it is claimed: the claim stops there, in order.
   */
  claimRunnable(limit: number, now: number, admit?: (jobId: number) => boolean): Job[] {
    return transact(
      this.db,
      () => {
        if (limit <= 0 || oneRow(this.s.queuePaused).paused === 1) return [];
        const claimed: Job[] = [];
        for (const { id } of this.s.dueRetrying.all(now, limit)) {
          if (admit && !admit(id)) return claimed;
          claimed.push(this.claimOne(id, 'retrying', 'retry due', now));
        }
        const wanted = limit - claimed.length;
        if (wanted === 0) return claimed;
        const candidates: Array<{ id: number; batchPriority: number; priority: number }> = [];
        const batches = this.s.runnableBatches.all();
        for (let i = 0; i < batches.length; i++) {
          const batch = batches[i]!;
          for (const job of this.s.queuedInBatch.all(batch.id, wanted)) {
            candidates.push({ id: job.id, batchPriority: batch.priority, priority: job.priority });
          }
          // a batch of lower priority can no longer place a job among the first `wanted`
          const next = batches[i + 1];
          if (candidates.length >= wanted && next && next.priority < batch.priority) break;
        }
        candidates.sort(
          (a, b) => b.batchPriority - a.batchPriority || b.priority - a.priority || a.id - b.id,
        );
        for (const { id } of candidates.slice(0, wanted)) {
          if (admit && !admit(id)) break;
          claimed.push(this.claimOne(id, 'queued', 'claimed', now));
        }
        return claimed;
      },
      'immediate',
    );
  }

  /** When the earliest waiting retry falls due (null: none waits), so the scheduler can sleep. */
  nextRetryAt(): number | null {
    return oneRow(this.s.nextRetryAt).at;
  }

  private claimOne(id: number, from: JobState, reason: string, now: number): Job {
    return toJob(oneRow(this.s.claim, { id, from, reason, now }));
  }

  /** running → succeeded; `returnedN` below `n` marks a partial success (see createTopUp). */
  succeed(id: number, result: { returnedN: number; now: number; reason?: string }): Job {
    return this.change(id, 'succeeded', (from) =>
      this.s.succeed.get({
        id,
        from,
        now: result.now,
        returnedN: result.returnedN,
        reason: result.reason ?? 'succeeded',
      }),
    );
  }

  /** running → retrying until `nextAttemptAt` (backoff, Retry-After). */
  scheduleRetry(
    id: number,
    retry: {
      nextAttemptAt: number;
      now: number;
      errorCode?: string | null;
      errorMessage?: string | null;
      reason?: string;
    },
  ): Job {
    return this.change(id, 'retrying', (from) =>
      this.s.scheduleRetry.get({
        id,
        from,
        now: retry.now,
        nextAttemptAt: retry.nextAttemptAt,
        errorCode: retry.errorCode ?? null,
        errorMessage: retry.errorMessage ?? null,
        reason: retry.reason ?? 'retry scheduled',
      }),
    );
  }

  /** running → failed, with why (`uncertain` for a request that may have been charged). */
  fail(
    id: number,
    failure: {
      kind: FailureKind;
      now: number;
      errorCode?: string | null;
      errorMessage?: string | null;
      reason?: string;
    },
  ): Job {
    return this.change(id, 'failed', (from) =>
      this.s.fail.get({
        id,
        from,
        now: failure.now,
        kind: failure.kind,
        errorCode: failure.errorCode ?? null,
        errorMessage: failure.errorMessage ?? null,
        reason: failure.reason ?? failure.kind,
      }),
    );
  }

  /** running → queued: the request was never sent, or refused before billing (auth, balance). */
  handBack(
    id: number,
    now: number,
    reason: string,
    error: { code: string | null; message: string } | null = null,
  ): Job {
    return this.change(id, 'queued', (from) =>
      this.s.handBack.get({
        id,
        from,
        now,
        reason,
        errorCode: error?.code ?? null,
        errorMessage: error?.message ?? null,
      }),
    );
  }

  /** Cancels one job. A running job: abort its request first, then call this. */
  cancel(id: number, now: number, reason = 'canceled'): Job {
    return this.change(id, 'canceled', (from) => this.s.cancel.get({ id, from, now, reason }));
  }

  /**
   * Cancels a batch's waiting jobs, at most `limit` per call so a huge batch never holds the
   * write lock for long: pause the batch, then call until `done`. Also returns the ids still
   * running: the engine aborts those and cancels them one by one.
   */
  cancelBatch(
    batchId: number,
    now: number,
    options: { reason?: string; limit?: number } = {},
  ): { canceled: number; running: number[]; done: boolean } {
    const reason = options.reason ?? 'batch canceled';
    // chunks keep each write lock short: the engine's commits must not wait behind one
    const limit = options.limit ?? 2_000;
    return transact(this.db, () => {
      let canceled = this.s.cancelQueuedChunk.run({ batchId, now, reason, limit }).changes;
      const done = canceled < limit;
      if (done) canceled += this.s.cancelRest.run({ batchId, now, reason }).changes;
      const running = this.s.runningInBatch.all(batchId).map((row) => row.id);
      return { canceled, running, done };
    });
  }

  /**
   * Failed or canceled → queued, with a fresh retry budget; the old outcome stays in the
   * attempts and transitions. An uncertain outcome may already be charged, so it needs
   * `anyway` (the person's "retry anyway"). Asking for a retry lets a held job go again.
   */
  requeue(id: number, now: number, options: { anyway?: boolean } = {}): Job {
    return this.change(id, 'queued', (from, failureKind) => {
      if (failureKind === 'uncertain' && !options.anyway) {
        throw new Error(
          `Job ${id} may already have been generated and charged (its outcome is uncertain): ` +
            `check its request id, then use "retry anyway" to send it again.`,
        );
      }
      const reason =
        from === 'canceled' ? 'retry after cancel' : options.anyway ? 'retry anyway' : 'retry';
      return this.s.requeue.get({ id, from, now, reason });
    });
  }

  /** `retry --failed` (uncertain: false) or `retry --uncertain` (true), for one batch or all. */
  requeueFailed(options: { uncertain: boolean; now: number; batchId?: number }): number {
    return this.s.requeueFailed.run({
      uncertain: options.uncertain ? 1 : 0,
      batchId: options.batchId ?? null,
      now: options.now,
      reason: options.uncertain ? 'retry anyway' : 'retry',
    }).changes;
  }

  /** All or none: an id that names no job changes nothing and says so. */
  setPriority(ids: readonly number[], priority: number, now: number): void {
    transact(this.db, () => {
      for (const id of ids) this.expectJob(this.s.setPriority.run(priority, now, id).changes, id);
    });
  }

  /** A paused job stays queued (or retrying) and is skipped until resumed. All or none. */
  setPaused(ids: readonly number[], paused: boolean, now: number): void {
    transact(this.db, () => {
      for (const id of ids) {
        this.expectJob(this.s.setPaused.run(paused ? 1 : 0, now, id).changes, id);
      }
    });
  }

  private expectJob(changes: number, id: number): void {
    if (changes !== 1) throw noSuchJob(id);
  }

  /**
   * Records what the platform said of a running video job's task (its submission, then each
   * check), to resume polling and to show its way: the status (known state and the platform's
   * own word), progress, the check's request id, whether it is past its usual time.
   */
  setVideoTask(
    id: number,
    task: {
      taskId: string;
      status: string | null;
      platformStatus?: string | null;
      progress?: string | null;
      checkRequestId?: string | null;
      overdue?: boolean;
      now: number;
    },
  ): void {
    const { changes } = this.s.setVideoTask.run({
      id,
      taskId: task.taskId,
      status: task.status,
      platformStatus: task.platformStatus ?? task.status,
      progress: task.progress ?? null,
      checkRequestId: task.checkRequestId ?? null,
      overdue: task.overdue ? 1 : 0,
      now: task.now,
    });
    if (changes !== 1) throw new Error(`Job ${id} is not running: cannot record its video task.`);
  }

  /** The one path of a single state change: table check, then compare-and-set, atomically. */
  private change(
    id: number,
    to: JobState,
    apply: (from: JobState, failureKind: string | null) => unknown,
  ): Job {
    return transact(this.db, () => {
      // A state reached from one state only (succeeded, failed, retrying: from running) is
      // set from that one straight away; the read that explains a refusal runs only then.
      // One statement fewer per outcome, on the engine's busiest path.
      const sole = SOLE_SOURCE[to];
      if (sole) {
        const row = apply(sole, null) as Record<string, unknown> | undefined;
        if (row) return toJob(row);
      }
      const current = this.s.stateOf.get(id) as
        { state: JobState; failure_kind: string | null } | undefined;
      if (!current) throw noSuchJob(id);
      assertTransition(current.state, to, `Job ${id}`);
      return toJob(apply(current.state, current.failure_kind) as Record<string, unknown>);
    });
  }
}
