import type { LedgerEntry } from '../ledger.ts';

/** Platform task states (interface 3). */
export type PlatformStatus = 'IN_PROGRESS' | 'SUCCESS' | 'FAILURE';
/** The OpenAI video lifecycle the `openai` client expects. */
export type VideoPhase = 'queued' | 'in_progress' | 'completed' | 'failed';

export interface VideoTask {
  id: string;
  /** The submitting key: only it may see the task. */
  ownerKey: string;
  model: string;
  prompt: string;
  seconds: number;
  size: string;
  submittedAt: number;
  /** How long the task takes from submission to SUCCESS. */
  durationMs: number;
  /** How the task is doomed to end in FAILURE (`task-fail`, `task-quota`); null: it succeeds. */
  failure: TaskFailure | null;
  entry: LedgerEntry;
  /** Set once the pre-deduction was settled (SUCCESS) or refunded (FAILURE). */
  billed: boolean;
  /** The rendered MP4, made on first download. */
  content: Promise<Buffer> | null;
}

/** A doomed task's error: its code, its fail reason, and when it fails (share of its duration). */
export interface TaskFailure {
  code: string;
  reason: string;
  share: number;
}

export interface TaskSnapshot {
  phase: VideoPhase;
  status: PlatformStatus;
  /** 0..100. */
  progress: number;
  failReason: string | null;
  /** Epoch ms when the task ended, null while it runs. */
  endedAt: number | null;
}

/** Share of the duration spent queued (progress 0) before the work starts. */
export const QUEUED_SHARE = 0.1;
/** Share of the duration after which a doomed task fails. */
export const FAILURE_SHARE = 0.5;

export const SIMULATED_FAIL_REASON =
  'The upstream video model failed while generating (a simulated failure). The pre-deducted quota was refunded; submit the task again.';
export const SIMULATED_QUOTA_REASON =
  'The account balance is too low to run this video task (a simulated failure). Nothing was charged; top up in the console, then submit the task again.';

/** The faults' task errors: `task-fail` fails half-way, `task-quota` at once (lack of quota). */
export const TASK_FAILURES = {
  'task-fail': {
    code: 'video_generation_failed',
    reason: SIMULATED_FAIL_REASON,
    share: FAILURE_SHARE,
  },
  'task-quota': { code: 'insufficient_user_quota', reason: SIMULATED_QUOTA_REASON, share: 0 },
} as const satisfies Record<string, TaskFailure>;

/** Where a task stands at `now`: progress advances linearly with time over its duration. */
export function snapshotAt(task: VideoTask, now: number): TaskSnapshot {
  const elapsed = Math.max(0, now - task.submittedAt);
  const share = task.durationMs > 0 ? elapsed / task.durationMs : 1;
  const { failure } = task;
  if (failure && share >= failure.share) {
    return {
      phase: 'failed',
      status: 'FAILURE',
      progress: Math.floor(failure.share * 100),
      failReason: failure.reason,
      endedAt: task.submittedAt + task.durationMs * failure.share,
    };
  }
  if (share >= 1) {
    return {
      phase: 'completed',
      status: 'SUCCESS',
      progress: 100,
      failReason: null,
      endedAt: task.submittedAt + task.durationMs,
    };
  }
  if (share < QUEUED_SHARE) {
    return { phase: 'queued', status: 'IN_PROGRESS', progress: 0, failReason: null, endedAt: null };
  }
  return {
    phase: 'in_progress',
    status: 'IN_PROGRESS',
    progress: Math.min(99, Math.max(1, Math.floor(share * 100))),
    failReason: null,
    endedAt: null,
  };
}

/** When the task reaches its final state. */
export function endTime(task: VideoTask): number {
  return task.submittedAt + task.durationMs * (task.failure?.share ?? 1);
}
