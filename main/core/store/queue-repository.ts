import type { Database } from 'better-sqlite3';
import type { PauseKind } from '../../../shared/jobs/pause.ts';
import { mayTakeOver, type LeaseRules, type RunnerLease } from './runner-lease.ts';
import { transact } from './transaction.ts';
import { oneRow } from './one-row.ts';
import { prepareOnUse } from './prepare-on-use.ts';

export interface QueueState {
  paused: boolean;
  pauseReason: string | null;
  pauseCode: string | null;
  /** Why it paused (null while running). */
  pauseKind: PauseKind | null;
  pausedAt: number | null;
  /** What a budget pause stopped before (its BudgetStop), as stored; null otherwise. */
  pauseDetail: unknown;
}

/** Every statement of QueueRepository (prepared on first use: prepare-on-use.ts). */
function queueStatements(db: Database) {
  return {
    runner: prepareOnUse<unknown[], RunnerLease>(
      db,
      `SELECT runner_id AS id, runner_pid AS pid, runner_host AS host,
         runner_heartbeat_at AS heartbeatAt
       FROM queue_state WHERE id = 1 AND runner_id IS NOT NULL`,
    ),
    takeRunner: prepareOnUse(
      db,
      `UPDATE queue_state SET runner_id = @id, runner_pid = @pid, runner_host = @host,
         runner_heartbeat_at = @heartbeatAt WHERE id = 1`,
    ),
    heartbeat: prepareOnUse(
      db,
      'UPDATE queue_state SET runner_heartbeat_at = ? WHERE id = 1 AND runner_id = ?',
    ),
    release: prepareOnUse(
      db,
      `UPDATE queue_state SET runner_id = NULL, runner_pid = NULL, runner_host = NULL,
         runner_heartbeat_at = NULL WHERE id = 1 AND runner_id = ?`,
    ),
    get: prepareOnUse<unknown[], Record<string, unknown>>(
      db,
      'SELECT * FROM queue_state WHERE id = 1',
    ),
    pause: prepareOnUse(
      db,
      `UPDATE queue_state SET paused = 1, pause_reason = ?, pause_code = ?, pause_kind = ?,
         paused_at = ?, pause_detail = ? WHERE id = 1`,
    ),
    resume: prepareOnUse(
      db,
      `UPDATE queue_state SET paused = 0, pause_reason = NULL, pause_code = NULL,
         pause_kind = NULL, paused_at = NULL, pause_detail = NULL WHERE id = 1`,
    ),
  };
}

type QueueStatements = ReturnType<typeof queueStatements>;

/**
 * The whole queue's pause, persisted so a restart keeps it: a pause-queue decision (auth,
 * permission, balance) sets it with the reason shown to the person; resume is explicit.
 */
export class QueueRepository {
  private readonly db: Database;
  private readonly s: QueueStatements;

  constructor(db: Database) {
    this.db = db;
    this.s = queueStatements(db);
  }

  get(): QueueState {
    const row = oneRow(this.s.get);
    return {
      paused: row.paused === 1,
      pauseReason: row.pause_reason as string | null,
      pauseCode: row.pause_code as string | null,
      pauseKind: row.paused === 1 ? ((row.pause_kind as PauseKind | null) ?? 'other') : null,
      pausedAt: row.paused_at as number | null,
      pauseDetail:
        row.paused === 1 && typeof row.pause_detail === 'string'
          ? (JSON.parse(row.pause_detail) as unknown)
          : null,
    };
  }

  /** `detail`: what a budget pause stopped before, kept as JSON for its banner and override. */
  pause(
    reason: string,
    now: number,
    code: string | null,
    kind: PauseKind,
    detail: unknown = null,
  ): void {
    this.s.pause.run(reason, code, kind, now, detail === null ? null : JSON.stringify(detail));
  }

  resume(): void {
    this.s.resume.run();
  }

  /**
   * Takes the runner lease (see runnerLease.ts) before recovery and scheduling. Returns the
   * holder when another live process has it: then run nothing.
   */
  acquireRunner(
    me: RunnerLease,
    rules: LeaseRules,
  ): { acquired: true } | { acquired: false; holder: RunnerLease } {
    return transact(
      this.db,
      () => {
        const holder = this.s.runner.get() ?? null;
        if (holder && !mayTakeOver(holder, me, me.heartbeatAt, rules)) {
          return { acquired: false as const, holder };
        }
        this.s.takeRunner.run(me);
        return { acquired: true as const };
      },
      'immediate',
    );
  }

  /** Renews the lease; false when another process took it over (then stop running). */
  heartbeat(runnerId: string, now: number): boolean {
    return this.s.heartbeat.run(now, runnerId).changes === 1;
  }

  releaseRunner(runnerId: string): void {
    this.s.release.run(runnerId);
  }

  runner(): RunnerLease | null {
    return this.s.runner.get() ?? null;
  }
}
