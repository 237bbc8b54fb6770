import type { PauseKind } from '../../../shared/jobs/pause.ts';
import { STOPS_THE_QUEUE } from '../engine/download.ts';
import type { Job } from '../store/rows.ts';
import type { Store } from '../store/store.ts';

/**
 * What steering the queue takes. The running engine does each as a store write and a turn of
 * its scheduler (aborting requests in flight where needed); with no engine running (no key
 * yet, another process holds the queue) `StoreControls` makes the same writes, and the engine
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

export class StoreControls implements QueueControls {
  private readonly store: Store;
  private readonly now: () => number;

  constructor(store: Store, now: () => number) {
    this.store = store;
    this.now = now;
  }

  pause(reason: string, code: string | null, kind: PauseKind): void {
    if (!this.store.queue.get().paused) this.store.queue.pause(reason, this.now(), code, kind);
  }

  resume(): void {
    this.store.queue.resume();
    this.store.images.retryFailedDownloads(this.now(), undefined, [...STOPS_THE_QUEUE]);
  }

  pauseBatch(batchId: number, paused: boolean): void {
    this.store.batches.setPaused(batchId, paused, paused ? 'Paused.' : null);
  }

  pauseJobs(jobIds: readonly number[], paused: boolean): void {
    this.store.jobs.setPaused(jobIds, paused, this.now());
  }

  cancelJob(jobId: number): void {
    this.store.jobs.cancel(jobId, this.now());
  }

  cancelBatch(batchId: number): number {
    let canceled = 0;
    for (;;) {
      const step = this.store.jobs.cancelBatch(batchId, this.now());
      canceled += step.canceled;
      if (step.done) return canceled;
    }
  }

  cancelAll(): number {
    let canceled = 0;
    for (const batch of this.store.batches.list()) canceled += this.cancelBatch(batch.id);
    return canceled;
  }

  setPriority(jobIds: readonly number[], priority: number): void {
    this.store.jobs.setPriority(jobIds, priority, this.now());
  }

  setBatchPriority(batchId: number, priority: number): void {
    this.store.batches.setPriority(batchId, priority);
  }

  retryFailed(options: { batchId?: number; anyway?: boolean }): number {
    return this.store.jobs.requeueFailed({
      uncertain: options.anyway ?? false,
      now: this.now(),
      ...(options.batchId === undefined ? {} : { batchId: options.batchId }),
    });
  }

  retryDownloads(batchId?: number): number {
    return this.store.images.retryFailedDownloads(this.now(), batchId);
  }

  topUp(jobId: number): Job {
    return this.store.jobs.createTopUp(jobId, this.now());
  }

  regenerateNotImages(scope: { batchId?: number }): { prompts: number; images: number } {
    const asked = { prompts: 0, images: 0 };
    for (;;) {
      const page = this.store.jobs.listWithNotImages({ ...scope, limit: 500 });
      if (page.length === 0) return asked;
      for (const job of page) {
        asked.images += this.store.jobs.createTopUp(job.id, this.now()).n;
        asked.prompts += 1;
      }
    }
  }
}
