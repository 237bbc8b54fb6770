import type { Job } from './rows.ts';
import type { Store } from './store.ts';

export interface RecoveryReport {
  /** Image jobs (and unsubmitted video jobs) that were in flight: now failed, uncertain. */
  uncertain: number[];
  /** Video jobs with a task id: still running, the engine resumes polling them. */
  resumeVideo: Job[];
  interruptedAttempts: number;
  resumedDownloads: number;
}

export const INTERRUPTED_MESSAGE =
  'Atelier stopped while this request was in flight, so it may have been generated and ' +
  'charged. Check its request id; use "retry anyway" to send it again.';

/**
 * On start, before the scheduler runs: settles what a crash left behind. A request that may
 * have been sent is never silently resent; video tasks already submitted are polled again;
 * unfinished downloads start over from the stored URL or bytes. One transaction. Call it only
 * while holding the runner lease (QueueRepository.acquireRunner): another live process's
 * running jobs are not leftovers.
 */
export function recoverAfterCrash(store: Store, now: number): RecoveryReport {
  return store.transaction(() => {
    const report: RecoveryReport = {
      uncertain: [],
      resumeVideo: [],
      interruptedAttempts: store.attempts.closeInterrupted(now),
      resumedDownloads: store.images.resumeInterrupted(now),
    };
    for (const job of store.jobs.listRunning()) {
      if (job.kind === 'video' && job.videoTaskId) {
        report.resumeVideo.push(job);
        continue;
      }
      store.jobs.fail(job.id, {
        kind: 'uncertain',
        now,
        errorCode: 'interrupted',
        errorMessage: INTERRUPTED_MESSAGE,
        reason: 'crash recovery',
      });
      report.uncertain.push(job.id);
    }
    return report;
  });
}
