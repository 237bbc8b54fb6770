import type { Database } from 'better-sqlite3';
import type { AttemptOutcome } from '../../../shared/jobs/outcomes.ts';
import { toAttempt, type Attempt } from './rows.ts';
import { transact } from './transaction.ts';
import { prepareOnUse } from './prepare-on-use.ts';

export interface AttemptResult {
  now: number;
  outcome: AttemptOutcome;
  httpStatus?: number | null;
  requestId?: string | null;
  upstreamRequestId?: string | null;
  errorCode?: string | null;
  errorMessage?: string | null;
  /** The classifier's decision, as it names it. */
  decision?: string | null;
  retryAfterMs?: number | null;
}

/** Every statement of AttemptRepository (prepared on first use: prepare-on-use.ts). */
function attemptStatements(db: Database) {
  return {
    start: prepareOnUse(db, 'INSERT INTO attempts (job_id, started_at) VALUES (?, ?)'),
    finish: prepareOnUse<unknown[], { job_id: number }>(
      db,
      `UPDATE attempts SET ended_at = @now, outcome = @outcome, http_status = @httpStatus,
         request_id = @requestId, upstream_request_id = @upstreamRequestId,
         error_code = @errorCode, error_message = @errorMessage, decision = @decision,
         retry_after_ms = @retryAfterMs
       WHERE id = @id AND ended_at IS NULL RETURNING job_id`,
    ),
    // the job shows its latest request ids: what support asks for
    jobRequestIds: prepareOnUse(
      db,
      `UPDATE jobs SET last_request_id = coalesce(@requestId, last_request_id),
         last_upstream_request_id = coalesce(@upstreamRequestId, last_upstream_request_id)
       WHERE id = @jobId`,
    ),
    countForJob: prepareOnUse<unknown[], { n: number }>(
      db,
      'SELECT count(*) AS n FROM attempts WHERE job_id = ?',
    ),
    forJob: prepareOnUse<unknown[], Record<string, unknown>>(
      db,
      'SELECT * FROM attempts WHERE job_id = ? ORDER BY id',
    ),
    closeOpen: prepareOnUse(
      db,
      `UPDATE attempts SET ended_at = ?, outcome = 'interrupted' WHERE ended_at IS NULL`,
    ),
  };
}

type AttemptStatements = ReturnType<typeof attemptStatements>;

/** The log of requests sent: one row per try, opened before sending, closed with its answer. */
export class AttemptRepository {
  private readonly db: Database;
  private readonly s: AttemptStatements;

  constructor(db: Database) {
    this.db = db;
    this.s = attemptStatements(db);
  }

  /** Opens an attempt for a running job, just before its request is sent. Returns its id. */
  start(jobId: number, now: number): number {
    return Number(this.s.start.run(jobId, now).lastInsertRowid);
  }

  /** Closes an attempt with the answer and copies its request ids onto the job. */
  finish(id: number, result: AttemptResult): void {
    transact(this.db, () => {
      const values = {
        id,
        now: result.now,
        outcome: result.outcome,
        httpStatus: result.httpStatus ?? null,
        requestId: result.requestId ?? null,
        upstreamRequestId: result.upstreamRequestId ?? null,
        errorCode: result.errorCode ?? null,
        errorMessage: result.errorMessage ?? null,
        decision: result.decision ?? null,
        retryAfterMs: result.retryAfterMs ?? null,
      };
      const row = this.s.finish.get(values);
      if (!row) throw new Error(`Attempt ${id} does not exist or was already finished.`);
      this.s.jobRequestIds.run({ ...values, jobId: row.job_id });
    });
  }

  /** Requests sent for a job in all, every retry included. */
  countForJob(jobId: number): number {
    return this.s.countForJob.get(jobId)?.n ?? 0;
  }

  listForJob(jobId: number): Attempt[] {
    return this.s.forJob.all(jobId).map(toAttempt);
  }

  /** After a crash: attempts never closed are marked interrupted. Returns how many. */
  closeInterrupted(now: number): number {
    return this.s.closeOpen.run(now).changes;
  }
}
