import type { StateCounts } from '../../core/store/job-repository.ts';
import { interruptedExitCode, type StopSignal } from './interrupt.ts';

/** How the run ended: all work settled, the queue paused by a problem, or Ctrl+C (a signal). */
export type RunOutcome = 'done' | 'paused' | 'interrupted';

export interface ExitFacts {
  outcome: RunOutcome;
  jobs: StateCounts;
  images: { failedDownloads: number; pendingDownloads: number };
  /** Prompts that returned fewer images than asked, not topped up yet. */
  partial: { missingImages: number };
  /** The signal that interrupted the run (SIGINT when not said). */
  signal?: StopSignal | null;
}

/**
 * 0: every prompt succeeded and every image is on disk. 1: something failed, is left
 * undone, came back short, or the queue paused on a problem the person must fix (key,
 * balance, disk). 128 + the signal's number when a signal stopped it: 130 Ctrl+C (SIGINT),
 * 143 SIGTERM, 129 SIGHUP (`atelier resume` continues).
 */
export function exitCodeFor({ outcome, jobs, images, partial, signal }: ExitFacts): number {
  if (outcome === 'interrupted') return interruptedExitCode(signal ?? 'SIGINT');
  if (outcome === 'paused') return 1;
  if (jobs.failed > 0 || images.failedDownloads > 0 || partial.missingImages > 0) return 1;
  if (jobs.queued + jobs.running + jobs.retrying > 0 || images.pendingDownloads > 0) return 1;
  return 0;
}
