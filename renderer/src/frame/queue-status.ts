import type { Connection } from '../data/connection.ts';
import type { AppInfo, Progress, QueueState } from '../data/types.ts';

export type QueueStatus = 'loading' | 'unknown' | 'paused' | 'running' | 'idle' | 'stopped';

/**
 * Running with nothing to send or download is idle: a green "Running" would claim work. Cut off
 * from the service, the last state known is no longer news: it is unknown until reconnected.
 */
export function queueStatus(
  queue: QueueState | undefined,
  connection: Connection = 'live',
): QueueStatus {
  if (!queue) return 'loading';
  if (connection === 'lost' || connection === 'closed') return 'unknown';
  if (queue.paused) return 'paused';
  if (queue.engine !== 'running') return 'stopped';
  const { jobs, downloads } = queue.progress;
  const left =
    jobs.queued + jobs.running + jobs.retrying + downloads.pending + downloads.downloading;
  return left === 0 ? 'idle' : 'running';
}

export interface Overall {
  /** Jobs that succeeded: the only ones "done". */
  done: number;
  failed: number;
  /** Canceled: settled, never done. */
  canceled: number;
  /** Jobs with nothing left to do, whatever became of them. */
  settled: number;
  total: number;
  jobsPerSecond: number;
}

/** Every job the queue knows, by what became of it. */
export function overallOf(progress: Progress | undefined): Overall | null {
  if (!progress) return null;
  const { jobs, jobsPerSecond } = progress;
  const settled = jobs.succeeded + jobs.failed + jobs.canceled;
  return {
    done: jobs.succeeded,
    failed: jobs.failed,
    canceled: jobs.canceled,
    settled,
    total: settled + jobs.queued + jobs.running + jobs.retrying,
    jobsPerSecond,
  };
}

/** The demo's notice, or null. */
export const demoNotice = (info: AppInfo | undefined): string | null =>
  info?.demo ? (info.notice ?? 'Demo mode: nothing is charged.') : null;

/** A notice the frame shows at all times that is not the demo one. */
export const hostNotice = (info: AppInfo | undefined): string | null =>
  info?.demo ? null : (info?.notice ?? null);
