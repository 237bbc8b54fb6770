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
  /** Whether the task is doomed to end in FAILURE (the `task-fail` fault). */
  fails: boolean;
  entry: LedgerEntry;
  /** Set once the pre-deduction was settled (SUCCESS) or refunded (FAILURE). */
  billed: boolean;
  /** The rendered MP4, made on first download. */
  content: Promise<Buffer> | null;
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
  'The upstream video model failed while generating (simulated task-fail fault). The pre-deducted quota was refunded; submit the task again.';

/** Where a task stands at `now`: progress advances linearly with time over its duration. */
export function snapshotAt(task: VideoTask, now: number): TaskSnapshot {
  const elapsed = Math.max(0, now - task.submittedAt);
  const share = task.durationMs > 0 ? elapsed / task.durationMs : 1;
  if (task.fails && share >= FAILURE_SHARE) {
    return {
      phase: 'failed',
      status: 'FAILURE',
      progress: Math.floor(FAILURE_SHARE * 100),
      failReason: SIMULATED_FAIL_REASON,
      endedAt: task.submittedAt + task.durationMs * FAILURE_SHARE,
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
  return task.submittedAt + task.durationMs * (task.fails ? FAILURE_SHARE : 1);
}
