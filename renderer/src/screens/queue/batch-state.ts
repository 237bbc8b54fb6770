import { resultWords } from '../../../../shared/jobs/words.ts';
import type { BatchSummary } from '../../data/types.ts';

export type BatchTone = 'paused' | 'running' | 'waiting' | 'failed' | 'canceled' | 'done';

/** What a batch's card says it is doing; canceled work is never called finished. */
export function batchState(batch: BatchSummary): { text: string; tone: BatchTone } {
  const { jobs, downloads } = batch;
  if (batch.paused) {
    return { text: batch.pauseReason ? `Held: ${batch.pauseReason}` : 'Held', tone: 'paused' };
  }
  if (jobs.running + jobs.retrying > 0 || downloads.downloading > 0) {
    return { text: 'Running', tone: 'running' };
  }
  if (jobs.queued > 0 || downloads.pending > 0) return { text: 'Waiting', tone: 'waiting' };
  if (jobs.failed > 0 || downloads.failed > 0) {
    return { text: 'Finished with failures', tone: 'failed' };
  }
  if (jobs.canceled > 0) {
    return jobs.succeeded === 0
      ? { text: 'Canceled', tone: 'canceled' }
      : { text: 'Finished, part canceled', tone: 'canceled' };
  }
  return { text: 'Finished', tone: 'done' };
}

/** Jobs with nothing left to do, whatever became of them. */
export const settledOf = ({ jobs }: BatchSummary) => jobs.succeeded + jobs.failed + jobs.canceled;
/** Jobs still to run (waiting retries included). */
export const openOf = ({ jobs }: BatchSummary) => jobs.queued + jobs.running + jobs.retrying;

/** What the batch's results are called: images, videos, or images and videos. */
export const resultsOf = (batch: BatchSummary) =>
  resultWords(
    Object.values(batch.jobs).reduce((a, b) => a + b, 0),
    batch.videos,
  );
