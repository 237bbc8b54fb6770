import type { PauseKind } from '../../../shared/jobs/pause.ts';
import type { Job } from '../store/rows.ts';

/**
 * What steering the queue takes. The running engine does each as a store write and a turn of
 * its scheduler (aborting requests in flight where needed); with no engine running (no key
 * yet, another process holds the queue) `QueueWrites` makes the same writes, and the engine
 * finds them when it starts.
 */
export interface QueueControls {
  pause(reason: string, code: string | null, kind: PauseKind): void;
  resume(): void;
  pauseBatch(batchId: number, paused: boolean): void;
  pauseJobs(jobIds: readonly number[], paused: boolean): void;
  cancelJob(jobId: number): void;
  cancelBatch(batchId: number): number;
  cancelAll(): number;
  setPriority(jobIds: readonly number[], priority: number): void;
  setBatchPriority(batchId: number, priority: number): void;
  retryFailed(options: { batchId?: number; anyway?: boolean }): number;
  retryDownloads(batchId?: number): number;
  topUp(jobId: number): Job;
  regenerateNotImages(scope: { batchId?: number }): { prompts: number; images: number };
}
