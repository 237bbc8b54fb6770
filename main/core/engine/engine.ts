import type { PauseKind } from '../../../shared/jobs/pause.ts';
import { EventEmitter } from 'node:events';
import type { GatewayClient } from '../gateway/client.ts';
import { consoleLogger, type Logger } from '../logger.ts';
import { FilePlacer } from '../library/file-placer.ts';
import { realLibraryPath } from '../library/containment.ts';
import { checkLibraryFolder } from '../library/library-folder.ts';
import { compileTemplate, DEFAULT_TEMPLATE } from '../library/naming.ts';
import { checkpointInBackground, type BackgroundCheckpoints } from '../store/checkpointer.ts';
import type { Job } from '../store/rows.ts';
import { StoreDiskError, storeDiskProblem } from '../store/store-errors.ts';
import type { Store } from '../store/store.ts';
import { AdaptiveConcurrency } from './adaptive-concurrency.ts';
import { BudgetKeeper, type BudgetRules } from './budget.ts';
import { DEFAULT_BACKOFF, type BackoffPolicy } from './backoff.ts';
import { ENGINE_STOPPING, type EngineContext, type VideoPoll } from './context.ts';
import { EngineControls, type EngineLimits, type LimitChange } from './controls.ts';
import type { ImageWritten } from './download.ts';
import { downloadLimitsOf } from './download-limits.ts';
import { LeaseKeeper, type StartReport } from './lease.ts';
import { ProgressThrottle, type EngineProgress } from './progress.ts';
import { RequestRateLimit } from './rate-limit.ts';
import { Scheduler, type EnginePhase, type IdleReason, type WakeTimers } from './scheduler.ts';
import {
  fetchLinkedBytes,
  keepUnrecordedAnswer,
  type UnrecordedAnswer,
} from './unrecorded-answers.ts';

export { EngineBusyError, type StartReport } from './lease.ts';
export type { EngineLimits, LimitChange } from './controls.ts';
export type { IdleReason } from './scheduler.ts';
export type { BudgetRules } from './budget.ts';
export type { ImageWritten } from './download.ts';

export interface EngineOptions {
  store: Store;
  client: GatewayClient;
  /** Where images are written; each batch gets a folder in it. */
  libraryDir: string;
  /** Most requests in flight (the pool's ceiling; 429s lower it for a while). */
  concurrency?: number;
  /** Most images written at once; by default as many as `concurrency` (at least 8). */
  downloadConcurrency?: number;
  /** How long a download started while requests leave waits for them (2 ms; see DownloadHold). */
  downloadHoldMs?: number;
  /** Optional cap on requests started per minute. */
  requestsPerMinute?: number | null;
  /**
   * Spending caps, checked before each request against the store's spend and prices (which the
   * host keeps: `store.spend.setPrices`); none by default.
   */
  budget?: BudgetRules | null;
  backoff?: Partial<BackoffPolicy>;
  downloadBackoff?: Partial<BackoffPolicy>;
  /** File name template (see library/naming.ts). */
  namingTemplate?: string;
  /** Ask the gateway for this answer format; by default the gateway's own default (a URL). */
  responseFormat?: 'url' | 'b64_json';
  sidecar?: boolean;
  manifest?: boolean;
  thumbnails?: boolean;
  videoPoll?: VideoPoll;
  /** Caps on one download and on an image's pixels; see DEFAULT_DOWNLOAD_LIMITS. */
  maxImageBytes?: number;
  maxVideoBytes?: number;
  /** A download body silent this long is given up (and tried again). */
  downloadIdleMs?: number;
  maxImagePixels?: number;
  /**
   * After a graceful stop's last answers, how long downloads may still run (1.5 s): a healthy
   * one lands before its link can expire, one that stalls does not hold the stop.
   */
  stopGraceMs?: number;
  /** How often progress events may fire. */
  progressIntervalMs?: number;
  now?: () => number;
  random?: () => number;
  /** Where the scheduler arms its wake-up (a retry, a download backoff): tests' own clock. */
  timers?: WakeTimers;
  /** Where background failures are said; the console by default. */
  logger?: Logger;
}

interface EngineEvents {
  /** At most every `progressIntervalMs`, after a commit: the counts it committed. */
  progress: [EngineProgress];
  paused: [{ reason: string; code: string | null; kind: PauseKind }];
  idle: [IdleReason];
  /** A transaction committed: what the store holds changed (read it there; no payload). */
  committed: [];
  /** An image is committed as done and its extras (sidecar, thumbnail) are on disk. */
  imageWritten: [ImageWritten];
  /** setLimits changed them: the limits now. */
  limits: [EngineLimits];
  /** What the platform said of a video job's task was recorded: read the job there. */
  video: [{ jobId: number; batchId: number }];
  /** A download ended without the image: failed, or pending again after a backoff. */
  downloadChanged: [{ id: number; jobId: number; batchId: number }];
}

/**
 * The durable queue. Jobs live in SQLite; the engine claims them only as pool slots free up
 * (never a whole batch in memory), runs them against the gateway, and writes results to disk
 * through a second pool for downloads. Every state change is a transaction in the store.
 *
 * This class is the facade: the scheduler fills the pools (scheduler.ts), the lease keeper
 * holds the data folder's queue (lease.ts), the controls change it (controls.ts).
 */
export class Engine extends EventEmitter<EngineEvents> {
  private readonly store: Store;
  private readonly ctx: EngineContext;
  private readonly scheduler: Scheduler;
  private readonly lease: LeaseKeeper;
  private readonly controls: EngineControls;
  private readonly budget: BudgetKeeper;
  private readonly stopGraceMs: number;
  private readonly throttle: ProgressThrottle;
  private checkpoints: BackgroundCheckpoints | null = null;
  private stopping: Promise<void> | null = null;
  private state: EnginePhase = 'new';
  /** stop({ abort }) is under way: requests in flight were aborted. */
  private aborting = false;
  private startedAt = 0;
  /** The data folder's disk refused a write: the engine stops (see storeFailed). */
  private storeFailure: StoreDiskError | null = null;

  constructor(options: EngineOptions) {
    super();
    const now = options.now ?? Date.now;
    this.stopGraceMs = options.stopGraceMs ?? 1500;
    this.store = options.store;
    // a bad template is refused before any work
    const template = compileTemplate(options.namingTemplate ?? DEFAULT_TEMPLATE);
    const aimd = new AdaptiveConcurrency({ max: options.concurrency ?? 8 });
    let libraryRoot: Promise<string | null> | null = null;
    this.ctx = {
      store: options.store,
      client: options.client,
      libraryDir: options.libraryDir,
      libraryRoot: () =>
        (libraryRoot ??= realLibraryPath(options.libraryDir).then((root) => {
          if (root === null) libraryRoot = null;
          return root;
        })),
      namingTemplate: template,
      backoff: { ...DEFAULT_BACKOFF, ...options.backoff },
      downloadBackoff: { ...DEFAULT_BACKOFF, baseMs: 1000, ...options.downloadBackoff },
      responseFormat: options.responseFormat,
      output: {
        sidecar: options.sidecar ?? false,
        manifest: options.manifest ?? false,
        thumbnails: options.thumbnails ?? false,
      },
      videoPoll: options.videoPoll ?? { initialMs: 1000, maxMs: 10_000 },
      limits: downloadLimitsOf(options),
      aimd,
      now,
      random: options.random ?? Math.random,
      log: options.logger ?? consoleLogger,
      stats: { requestsSent: 0, imagesWritten: 0, bytesWritten: 0 },
      placer: new FilePlacer(),
      commit: (write) => this.scheduler.commitOutcome(write),
      commitWrite: (write) => this.scheduler.commitWrite(write),
      reserveDownloads: (count) => this.scheduler.reserveDownloads(count),
      startDownloads: (prepared, reserved) => this.scheduler.startDownloads(prepared, reserved),
      releaseDownloads: (count) => this.scheduler.releaseDownloads(count),
      batchOf: (batchId) => this.scheduler.batchOf(batchId),
      pollingVideos: new Set(),
      wakeAt: (at) => this.scheduler.wakeAt(at),
      pauseQueue: (reason, code, kind) => this.controls.pause(reason, code, kind),
      queuePaused: (reason, code, kind) => this.controls.announcePause(reason, code, kind),
      keepUnrecorded: (answer, error) => this.keepUnrecorded(answer, error),
      imageWritten: (event) => this.emit('imageWritten', event),
      videoChanged: (job) => this.emit('video', { jobId: job.id, batchId: job.batchId }),
      downloadChanged: (image) =>
        this.emit('downloadChanged', { id: image.id, jobId: image.jobId, batchId: image.batchId }),
    };
    this.throttle = new ProgressThrottle(options.progressIntervalMs ?? 100, () => {
      // Counting reads the database: not worth it when nobody listens.
      if (this.listenerCount('progress') > 0) this.emit('progress', this.progress());
    });
    const storeFailed = (error: unknown) => this.storeFailed(error);
    this.budget = new BudgetKeeper(options.store, options.budget ?? null);
    this.scheduler = new Scheduler({
      ctx: this.ctx,
      phase: () => this.state,
      // As many downloads at once as requests (at least 8): each write waits mostly on the disk
      // (create, fsync), so a smaller pool falls behind the answers and holds the queue back.
      downloadLimit: options.downloadConcurrency ?? Math.max(8, options.concurrency ?? 8),
      downloadHoldMs: options.downloadHoldMs,
      rate: options.requestsPerMinute
        ? new RequestRateLimit(options.requestsPerMinute, now())
        : null,
      budget: this.budget,
      throttle: this.throttle,
      storeFailed,
      onIdle: (reason) => this.emit('idle', reason),
      onCommit: () => this.committed(),
      timers: options.timers,
    });
    this.lease = new LeaseKeeper({
      store: this.store,
      now,
      storeFailed,
      hasFailed: () => this.storeFailure !== null,
    });
    this.controls = new EngineControls({
      store: this.store,
      now,
      scheduler: this.scheduler,
      aimd,
      requestsPerMinute: options.requestsPerMinute || null,
      downloadConcurrency: options.downloadConcurrency,
      announceLimits: (limits) => this.emit('limits', limits),
      storeFailure: () => this.storeFailure,
      storeFailed,
      announcePaused: (event) => this.emit('paused', event),
    });
  }

  /**
   * Checks that the library can take files (a LibraryFolderError if not: nothing is sent),
   * takes this data folder's queue (refused while another live process runs it), records the
   * answers a full data folder kept aside last time, settles what a crash left (in-flight image
   * jobs fail as uncertain; submitted videos are polled again; unfinished downloads resume),
   * then starts scheduling. A data folder that refuses writes fails it with a StoreDiskError.
   */
  async start(): Promise<StartReport> {
    if (this.state !== 'new') throw new Error('This engine was already started.');
    // Before anything is sent: every image of a library that cannot take files is paid for
    // and lost.
    checkLibraryFolder(this.ctx.libraryDir);
    const now = this.ctx.now();
    this.lease.acquire(now);
    this.lease.startTicker(
      () => this.scheduler.pump(),
      () => void this.stop(),
    );
    let report: StartReport;
    try {
      report = await this.lease.recoverOnStart(this.ctx.libraryDir, now);
    } catch (error) {
      this.state = 'stopped';
      throw error;
    }
    // (after the crash's leftovers are settled: what they may have cost is not this run's)
    this.budget.startRun();
    await this.lease.sweepTempFiles(this.ctx.libraryDir);
    if (this.state !== 'new') return report; // stopped while sweeping
    this.state = 'running';
    this.startedAt = now;
    for (const job of report.resumeVideo) this.scheduler.launch(job, null);
    this.scheduler.pump();
    // The helper threads start once the first claim's requests are sent (it commits in this
    // turn's check phase; the sockets connect and write in the next turn's poll phase): their
    // start-up, tens of ms of CPU each, would otherwise hold them back, and neither thread is
    // needed before answers come (a write starts the placer itself if it comes first).
    setImmediate(() => setImmediate(() => this.startHelpers()));
    return report;
  }

  /** The WAL's checkpoints in the background and the file placer's thread. */
  private startHelpers(): void {
    if (this.state !== 'running' || this.checkpoints) return;
    this.checkpoints = checkpointInBackground(this.store.db, { log: this.ctx.log });
    this.ctx.placer.prepare();
  }

  /**
   * Stops taking work. In-flight requests finish (they may be paid for) unless `abort` is
   * set: then requests that never left go back to the queue, and requests already sent fail
   * as uncertain (as after a crash). Downloads get `stopGraceMs` after the last answer (none
   * when aborting), then go back to pending with their link or bytes: a healthy one lands
   * before its link can expire, and one that stalls does not hold the stop. Video tasks already submitted stop being polled either way and stay running for
   * the next start to poll. Releases the queue for another process.
   */
  stop(options: { abort?: boolean } = {}): Promise<void> {
    // (`stopped` is set before the last steps of the drain: a caller must still wait for them)
    if (this.state === 'stopped') return this.stopping ?? Promise.resolve();
    // A second call may turn a graceful stop into an abort, never the reverse.
    if (options.abort && !this.aborting) {
      this.aborting = true;
      this.scheduler.abortRequests();
      this.scheduler.closeDownloads();
    }
    this.stopping ??= this.drainAndStop();
    return this.stopping;
  }

  private async drainAndStop(): Promise<void> {
    this.state = 'draining';
    this.scheduler.clearWake();
    for (const id of this.ctx.pollingVideos) this.scheduler.abortJob(id, ENGINE_STOPPING);
    // Requests first: the last answers may still hand their images to the download pool,
    // which gets a moment to write them before the rest wait, pending, for the next start.
    await this.scheduler.requestsIdle();
    // (not when the database refuses writes: a download's done mark could not be kept)
    await this.scheduler.drainDownloads(
      this.aborting || this.storeFailure ? null : this.stopGraceMs,
    );
    // The file placer's thread ends on its own time (the downloads are drained: every write
    // it held is answered); waiting for it held the end of a run by 4-13 ms.
    this.ctx.placer.close().catch((error: unknown) => {
      this.ctx.log.warn(`the file placer's thread did not end cleanly: ${String(error)}`);
    });
    this.state = 'stopped';
    this.lease.stopTicker();
    // Every outcome is committed before another process may take the queue.
    this.scheduler.flushWrites();
    await this.checkpoints?.stop();
    this.lease.release();
    this.throttle.flush();
    this.throttle.stop();
    this.scheduler.settleIdle('stopped');
  }

  /** Resolves when nothing is left to do now: all done, the queue paused, or stopped. */
  whenIdle(): Promise<IdleReason> {
    return this.scheduler.whenIdle();
  }

  /**
   * Something to do was written beside the engine (a new batch): claim it in this turn's
   * commit, not at the next tick of the once-a-second safety net.
   */
  wake(): void {
    this.scheduler.pump();
  }

  /** Pauses the whole queue: requests in flight finish, nothing new starts. Persisted. */
  pause(reason = 'Paused.', code: string | null = 'manual', kind: PauseKind = 'manual'): void {
    this.controls.pause(reason, code, kind);
  }

  /** Lifts the pause; downloads that stopped on the disk (full, unwritable) are tried again. */
  resume(): void {
    this.controls.resume();
  }

  pauseBatch(batchId: number, paused: boolean): void {
    this.controls.pauseBatch(batchId, paused);
  }

  /**
   * Holds jobs back, or lets them go again. A held job keeps its state (queued, or retrying
   * with its due time) and is skipped until released; one in flight finishes its request.
   */
  pauseJobs(jobIds: readonly number[], paused: boolean): void {
    this.controls.pauseJobs(jobIds, paused);
  }

  /** Cancels a job; one in flight has its request aborted. */
  cancelJob(jobId: number): void {
    this.controls.cancelJob(jobId);
  }

  /** Cancels a batch's waiting jobs (in chunks, so the lock stays short) and aborts its running ones. */
  cancelBatch(batchId: number): number {
    return this.controls.cancelBatch(batchId);
  }

  /** Cancels every batch's unfinished jobs (see cancelBatch). Returns how many waited. */
  cancelAll(): number {
    return this.controls.cancelAll();
  }

  /** Reorders jobs: a higher priority is claimed first, within its batch's turn. */
  setPriority(jobIds: readonly number[], priority: number): void {
    this.controls.setPriority(jobIds, priority);
  }

  /** Reorders batches: the jobs of a batch of higher priority are claimed before any other's. */
  setBatchPriority(batchId: number, priority: number): void {
    this.controls.setBatchPriority(batchId, priority);
  }

  /**
   * Queues failed jobs again, recording where each retry came from. Uncertain outcomes (the
   * work may have been charged) are only resent with `anyway`.
   */
  retryFailed(options: { batchId?: number; anyway?: boolean } = {}): number {
    return this.controls.retryFailed(options);
  }

  /**
   * Every failed download again, from the stored link or bytes: never a new generation. Links
   * that answered "expired" included (some stores answer 404 before a file appears); one that
   * fails again stays failed with its reason. Returns how many were queued.
   */
  retryDownloads(batchId?: number): number {
    return this.controls.retryDownloads(batchId);
  }

  /**
   * Changes the concurrency and the requests-per-minute cap (null: none) while running; see
   * EngineControls.setLimits. Emits `limits`; returns the limits now.
   */
  setLimits(change: LimitChange): EngineLimits {
    return this.controls.setLimits(change);
  }

  /**
   * Changes the spending caps while running (null: none); a run's cap counts from the moment
   * it is set. The next claim applies them.
   */
  setBudget(rules: BudgetRules | null): void {
    this.budget.set(rules);
    this.scheduler.pump();
  }

  /** Whether the request a budget pause stopped before would still pass its cap now. */
  budgetStillStops(stop: Parameters<BudgetKeeper['stillStops']>[0]): boolean {
    return this.budget.stillStops(stop, this.ctx.now());
  }

  /** The concurrency set, the pool's size now (lower after 429s), and the cap. */
  limits(): EngineLimits {
    return this.controls.limits();
  }

  /** A new job for the images a partial success did not return. */
  topUp(jobId: number): Job {
    return this.controls.topUp(jobId);
  }

  /**
   * The person asks again for the images whose link gave something that is not an image: one
   * new job per prompt, for those images only (new, paid requests). Returns what was asked.
   */
  regenerateNotImages(scope: { batchId?: number } = {}): { prompts: number; images: number } {
    return this.controls.regenerateNotImages(scope);
  }

  /**
   * Commits the writes waiting for their turn's commit now (a few ms early), for a caller that
   * needs exact counts at once (a summary written before the engine settles). The engine
   * commits them by itself anyway; `progress()` reads what is committed.
   */
  flushWrites(): void {
    this.scheduler.flushWrites();
  }

  /** The queue as committed, and the pools as they are now. Reads only; changes nothing. */
  progress(): EngineProgress {
    const now = this.ctx.now();
    const queue = this.store.queue.get();
    return {
      jobs: this.store.jobs.counts(),
      downloads: this.store.images.counts(),
      inFlight: this.scheduler.inFlight,
      downloading: this.scheduler.downloadingNow,
      concurrency: this.ctx.aimd.limit,
      ...this.ctx.stats,
      jobsPerSecond: this.scheduler.jobsPerSecond(now, this.startedAt),
      paused: this.storeFailure
        ? { reason: this.storeFailure.message, code: this.storeFailure.code, kind: 'disk' as const }
        : queue.paused
          ? {
              reason: queue.pauseReason ?? 'Paused.',
              code: queue.pauseCode,
              kind: queue.pauseKind ?? 'other',
            }
          : null,
      elapsedMs: now - this.startedAt,
    };
  }

  /** Every commit: `committed` at once, and a progress event reading it (throttled). */
  private committed(): void {
    this.emit('committed');
    // (after the stop's last flush the caller may close the store: no late progress read)
    if (this.state !== 'stopped') this.throttle.touch(this.ctx.now());
  }

  /**
   * The data folder's disk refuses writes (full, read-only, failing): true, and the engine
   * stops — nothing new is claimed (a claim is a write), the requests in flight finish and
   * their answers are kept aside, and `paused` says why, once. False for any other error.
   */
  private storeFailed(error: unknown): boolean {
    const problem = storeDiskProblem(error);
    if (!problem) return false;
    if (this.storeFailure) return true;
    this.storeFailure = new StoreDiskError(this.store.db.name, problem, error);
    this.emit('paused', {
      reason: this.storeFailure.message,
      code: this.storeFailure.code,
      kind: 'disk',
    });
    void this.stop();
    return true;
  }

  /** A paid answer the database refused: into the library, for the next start to record. */
  private async keepUnrecorded(answer: UnrecordedAnswer, error: unknown): Promise<void> {
    this.storeFailed(error);
    try {
      const images = await fetchLinkedBytes(this.ctx.client, answer.images);
      await keepUnrecordedAnswer(this.ctx.libraryDir, { ...answer, images });
    } catch {
      // The library refuses too: the job stays running, and the next start settles it as
      // uncertain (never resent silently).
    }
  }
}
