import type { StateCounts } from '../../core/store/job-repository.ts';
import { INTERRUPTED_EXIT_CODE } from './interrupt.ts';
import type { RunOutcome } from './summary.ts';

export interface ExitFacts {
  outcome: RunOutcome;
  jobs: StateCounts;
  images: { failedDownloads: number; pendingDownloads: number };
  /** Prompts that returned fewer images than asked, not topped up yet. */
  partial: { missingImages: number };
}

/**
 * 0: every prompt succeeded and every image is on disk. 1: something failed, is left
 * undone, came back short, or the queue paused on a problem the person must fix (key,
 * balance, disk). 130: stopped with Ctrl+C (`atelier resume` continues).
 */
export function exitCodeFor({ outcome, jobs, images, partial }: ExitFacts): number {
  if (outcome === 'interrupted') return INTERRUPTED_EXIT_CODE;
  if (outcome === 'paused') return 1;
  if (jobs.failed > 0 || images.failedDownloads > 0 || partial.missingImages > 0) return 1;
  if (jobs.queued + jobs.running + jobs.retrying > 0 || images.pendingDownloads > 0) return 1;
  return 0;
}
