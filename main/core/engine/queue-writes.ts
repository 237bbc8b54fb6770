import type { PauseKind } from '../../../shared/jobs/pause.ts';
import { STOPS_THE_QUEUE } from './download.ts';
import type { Job } from '../store/rows.ts';
import type { Store } from '../store/store.ts';

/**
 * The store's half of every control of the queue: the writes, with no engine needed. The
 * running engine's EngineControls makes these writes and then wakes its scheduler (aborting
 * requests in flight where needed); with no engine running (no key yet, another process
 * holds the queue) the application makes them alone, and the engine finds them when it starts.
 */
export class QueueWrites {
  private readonly store: Store;
  private readonly now: () => number;

  constructor(store: Store, now: () => number) {
    this.store = store;
    this.now = now;
  }

  /** Pauses the whole queue, persisted; false when it was paused already. */
  pause(reason: string, code: string | null, kind: PauseKind): boolean {
    if (this.store.queue.get().paused) return false;
    this.store.queue.pause(reason, this.now(), code, kind);
    return true;
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

  /**
   * Cancels a batch's waiting jobs in chunks (each write lock short); `running` hears of the
   * jobs in flight, which only an engine can abort. Returns how many waited.
   */
  cancelBatch(batchId: number, running: (ids: number[]) => void = () => {}): number {
    let canceled = 0;
    for (;;) {
      const step = this.store.jobs.cancelBatch(batchId, this.now());
      canceled += step.canceled;
      running(step.running);
      if (step.done) return canceled;
    }
  }

  cancelAll(running: (ids: number[]) => void = () => {}): number {
    let canceled = 0;
    for (const batch of this.store.batches.list()) canceled += this.cancelBatch(batch.id, running);
    return canceled;
  }

  setPriority(jobIds: readonly number[], priority: number): void {
    this.store.jobs.setPriority(jobIds, priority, this.now());
  }

  setBatchPriority(batchId: number, priority: number): void {
    this.store.batches.setPriority(batchId, priority);
  }

  /** Failed jobs queued again; uncertain ones (maybe charged) only with `anyway`. */
  retryFailed(options: { batchId?: number; anyway?: boolean } = {}): number {
    return this.store.jobs.requeueFailed({
      uncertain: options.anyway ?? false,
      now: this.now(),
      ...(options.batchId === undefined ? {} : { batchId: options.batchId }),
    });
  }

  /** Every failed download again, from the stored link or bytes: never a new generation. */
  retryDownloads(batchId?: number): number {
    return this.store.images.retryFailedDownloads(this.now(), batchId);
  }

  topUp(jobId: number): Job {
    return this.store.jobs.createTopUp(jobId, this.now());
  }

  /**
   * One new job per prompt for the images whose link gave something that is not an image
   * (new, paid requests the person asked for). Returns what was asked.
   */
  regenerateNotImages(scope: { batchId?: number } = {}): { prompts: number; images: number } {
    const asked = { prompts: 0, images: 0 };
    for (;;) {
      // each page's jobs get their top-up, so the next read starts past them
      const page = this.store.jobs.listWithNotImages({ ...scope, limit: 500 });
      if (page.length === 0) return asked;
      for (const job of page) {
        asked.images += this.store.jobs.createTopUp(job.id, this.now()).n;
        asked.prompts += 1;
      }
    }
  }
}
