import type { PauseKind } from '../../../shared/jobs/pause.ts';
import type { Job } from '../store/rows.ts';
import type { AdaptiveConcurrency } from './adaptive-concurrency.ts';
import { RequestRateLimit } from './rate-limit.ts';
import type { StoreDiskError } from '../store/store-errors.ts';
import { QueueWrites } from './queue-writes.ts';
import type { Store } from '../store/store.ts';
import type { Scheduler } from './scheduler.ts';

/** How fast the engine may go: what the person set, and the pool's size now. */
export interface EngineLimits {
  /** The most requests in flight the person allows. */
  concurrency: number;
  /** The pool's size now: the setting, or less while 429s keep it lower. */
  current: number;
  /** Requests started per minute at most; null: no cap. */
  requestsPerMinute: number | null;
}

/** What setLimits changes; a field left out stays as it is. */
export interface LimitChange {
  concurrency?: number;
  /** null removes the cap. */
  requestsPerMinute?: number | null;
}

export interface EngineControlsOptions {
  store: Store;
  now: () => number;
  scheduler: Scheduler;
  aimd: AdaptiveConcurrency;
  /** The cap the engine started with (null: none). */
  requestsPerMinute: number | null;
  /** The download pool's size when the person set it; otherwise it follows the concurrency. */
  downloadConcurrency: number | undefined;
  /** Tells the listeners the limits changed (the engine's `limits` event). */
  announceLimits: (limits: EngineLimits) => void;
  /** The disk's refusal that stopped the engine, if one did. */
  storeFailure: () => StoreDiskError | null;
  /** A disk that refuses writes stops the engine: true when `error` is one (see Engine). */
  storeFailed: (error: unknown) => boolean;
  /** Tells the listeners the queue is paused (the engine's `paused` event). */
  announcePaused: (event: { reason: string; code: string | null; kind: PauseKind }) => void;
}

/**
 * What a person (or the app) changes on a running queue. Each is a write in the store, then
 * a wake-up of the scheduler, which applies it at its next claim.
 */
export class EngineControls {
  private readonly store: Store;
  private readonly now: () => number;
  private readonly writes: QueueWrites;
  private readonly scheduler: Scheduler;
  private readonly storeFailure: () => StoreDiskError | null;
  private readonly storeFailed: (error: unknown) => boolean;
  private readonly announcePaused: (event: {
    reason: string;
    code: string | null;
    kind: PauseKind;
  }) => void;
  private readonly aimd: AdaptiveConcurrency;
  private requestsPerMinute: number | null;
  private readonly downloadConcurrency: number | undefined;
  private readonly announceLimits: (limits: EngineLimits) => void;

  constructor(options: EngineControlsOptions) {
    this.store = options.store;
    this.now = options.now;
    this.writes = new QueueWrites(options.store, options.now);
    this.scheduler = options.scheduler;
    this.aimd = options.aimd;
    this.requestsPerMinute = options.requestsPerMinute;
    this.downloadConcurrency = options.downloadConcurrency;
    this.announceLimits = options.announceLimits;
    this.storeFailure = options.storeFailure;
    this.storeFailed = options.storeFailed;
    this.announcePaused = options.announcePaused;
  }

  /** Pauses the whole queue: requests in flight finish, nothing new starts. Persisted. */
  pause(reason = 'Paused.', code: string | null = 'manual', kind: PauseKind = 'manual'): void {
    if (this.storeFailure() || this.store.queue.get().paused) return this.scheduler.pump();
    try {
      this.store.queue.pause(reason, this.now(), code, kind);
    } catch (error) {
      // (stopping already, and saying why: a disk that refuses writes cannot record a pause)
      if (this.storeFailed(error)) return;
      throw error;
    }
    this.announcePause(reason, code, kind);
  }

  /** The queue was paused inside a committed write: tell the listeners. */
  announcePause(reason: string, code: string | null, kind: PauseKind): void {
    this.announcePaused({ reason, code, kind });
    this.scheduler.pump();
  }

  /** Lifts the pause; downloads that stopped on the disk (full, unwritable) are tried again. */
  resume(): void {
    this.writes.resume();
    this.scheduler.pump();
  }

  pauseBatch(batchId: number, paused: boolean): void {
    this.writes.pauseBatch(batchId, paused);
    this.scheduler.forgetBatch(batchId);
    this.scheduler.pump();
  }

  /**
   * Holds jobs back, or lets them go again. A held job keeps its state (queued, or retrying
   * with its due time) and is skipped until released; one in flight finishes its request.
   */
  pauseJobs(jobIds: readonly number[], paused: boolean): void {
    this.writes.pauseJobs(jobIds, paused);
    this.scheduler.pump();
  }

  /** Cancels a job; one in flight has its request aborted. */
  cancelJob(jobId: number): void {
    if (!this.scheduler.abortJob(jobId)) this.writes.cancelJob(jobId);
    this.scheduler.pump();
  }

  /** Cancels a batch's waiting jobs (in chunks, so the lock stays short) and aborts its running ones. */
  cancelBatch(batchId: number): number {
    const canceled = this.writes.cancelBatch(batchId, (running) => {
      for (const id of running) this.scheduler.abortJob(id);
    });
    this.scheduler.pump();
    return canceled;
  }

  /** Cancels every batch's unfinished jobs (see cancelBatch). Returns how many waited. */
  cancelAll(): number {
    let canceled = 0;
    for (const batch of this.store.batches.list()) canceled += this.cancelBatch(batch.id);
    return canceled;
  }

  /** Reorders jobs: a higher priority is claimed first, within its batch's turn. */
  setPriority(jobIds: readonly number[], priority: number): void {
    this.writes.setPriority(jobIds, priority);
    this.scheduler.pump();
  }

  /** Reorders batches: the jobs of a batch of higher priority are claimed before any other's. */
  setBatchPriority(batchId: number, priority: number): void {
    this.writes.setBatchPriority(batchId, priority);
    this.scheduler.forgetBatch(batchId);
    this.scheduler.pump();
  }

  /**
   * Queues failed jobs again, recording where each retry came from. Uncertain outcomes (the
   * work may have been charged) are only resent with `anyway`.
   */
  retryFailed(options: { batchId?: number; anyway?: boolean } = {}): number {
    const count = this.writes.retryFailed(options);
    this.scheduler.pump();
    return count;
  }

  /**
   * Every failed download again, from the stored link or bytes: never a new generation. Links
   * that answered "expired" included (some stores answer 404 before a file appears); one that
   * fails again stays failed with its reason. Returns how many were queued.
   */
  retryDownloads(batchId?: number): number {
    const count = this.writes.retryDownloads(batchId);
    this.scheduler.pump();
    return count;
  }

  /**
   * Changes how fast the queue runs, at once: a lower concurrency lets the requests in flight
   * finish and starts none until fewer run; the download pool follows it (at least 8) unless
   * its size was given; a new cap starts with a fresh allowance. Returns the limits now.
   */
  setLimits(change: LimitChange): EngineLimits {
    const { concurrency, requestsPerMinute } = change;
    if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency >= 1)) {
      throw new RangeError(
        `The concurrency must be a whole number of at least 1, not ${concurrency}.`,
      );
    }
    // (checked before anything changes: a refused cap leaves the concurrency as it was too)
    const rate =
      requestsPerMinute === undefined || requestsPerMinute === null
        ? null
        : new RequestRateLimit(requestsPerMinute, this.now());
    if (concurrency !== undefined) {
      this.aimd.setMax(concurrency);
      this.scheduler.setDownloadLimit(this.downloadConcurrency ?? Math.max(8, concurrency));
    }
    if (requestsPerMinute !== undefined) {
      this.scheduler.setRate(rate);
      this.requestsPerMinute = requestsPerMinute;
    }
    const limits = this.limits();
    this.announceLimits(limits);
    this.scheduler.pump();
    return limits;
  }

  limits(): EngineLimits {
    return {
      concurrency: this.aimd.ceiling,
      current: this.aimd.limit,
      requestsPerMinute: this.requestsPerMinute,
    };
  }

  /** A new job for the images a partial success did not return. */
  topUp(jobId: number): Job {
    const job = this.writes.topUp(jobId);
    this.scheduler.pump();
    return job;
  }

  /**
   * The person asks again for the images whose link gave something that is not an image: one
   * new job per prompt, for those images only (new, paid requests). Returns what was asked.
   */
  regenerateNotImages(scope: { batchId?: number } = {}): { prompts: number; images: number } {
    const asked = this.writes.regenerateNotImages(scope);
    if (asked.prompts > 0) this.scheduler.pump();
    return asked;
  }
}
