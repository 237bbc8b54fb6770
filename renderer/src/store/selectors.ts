import type { AppState, BatchSummary, JobIdList, JobSummary } from './state.ts';

/** Plain functions of the state; read derived arrays with `useShallow`. */

export const selectDemoNotice = (s: AppState): string | null =>
  s.info?.demo ? (s.info.notice ?? 'Demo mode: nothing is charged.') : null;

/** A notice the frame shows at all times that is not the demo one. */
export const selectNotice = (s: AppState): string | null =>
  s.info?.demo ? null : (s.info?.notice ?? null);

export const selectPaused = (s: AppState) => s.paused;

export const selectQueueStatus = (s: AppState): 'loading' | 'paused' | 'running' | 'stopped' => {
  if (s.paused) return 'paused';
  if (s.engine === null) return 'loading';
  return s.engine === 'running' ? 'running' : 'stopped';
};

export interface Overall {
  done: number;
  total: number;
  failed: number;
  jobsPerSecond: number;
}

/** Jobs settled (succeeded, failed or canceled) out of every job the queue knows. */
export const selectOverall = (s: AppState): Overall | null => {
  if (!s.progress) return null;
  const { jobs, jobsPerSecond } = s.progress;
  const done = jobs.succeeded + jobs.failed + jobs.canceled;
  const total = done + jobs.queued + jobs.running + jobs.retrying;
  return { done, total, failed: jobs.failed, jobsPerSecond };
};

/** The listed batches, in order (a new array: read it with `useShallow`). */
export const selectBatchList = (s: AppState): BatchSummary[] =>
  s.batchIds.flatMap((id) => s.batches.get(id) ?? []);

export const selectBatch =
  (id: number) =>
  (s: AppState): BatchSummary | undefined =>
    s.batches.get(id);

export const selectJobIds =
  (key: string) =>
  (s: AppState): JobIdList | undefined =>
    s.jobIdsByKey.get(key);

export const selectJob =
  (id: number) =>
  (s: AppState): JobSummary | undefined =>
    s.jobsById.get(id);

export const selectNotices = (s: AppState) => s.finishedNotices;
export const selectConnection = (s: AppState) => s.connection;
