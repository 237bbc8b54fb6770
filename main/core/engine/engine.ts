import type { PauseKind } from '../../../shared/jobs/pause.ts';
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import PQueue from 'p-queue';
import type { GatewayClient } from '../gateway/client.ts';
import { removeStaleTempFiles } from '../library/library-fs.ts';
import { FilePlacer } from '../library/file-placer.ts';
import { checkLibraryFolder } from '../library/library-folder.ts';
import { compileTemplate, DEFAULT_TEMPLATE } from '../library/naming.ts';
import { checkpointInBackground, type BackgroundCheckpoints } from '../store/checkpointer.ts';
import { recoverAfterCrash, type RecoveryReport } from '../store/recovery.ts';
import { writeScopes } from '../store/transaction.ts';
import type { Batch, Image, Job } from '../store/rows.ts';
import { describeHolder, LEASE_STALE_AFTER_MS, processIsAlive } from '../store/runner-lease.ts';
import { StoreDiskError, storeDiskProblem } from '../store/store-errors.ts';
import type { Store } from '../store/store.ts';
import { AdaptiveConcurrency } from './adaptive-concurrency.ts';
import { DEFAULT_BACKOFF, type BackoffPolicy } from './backoff.ts';
import { ENGINE_STOPPING, type EngineContext } from './context.ts';
import {
  prepareDownload,
  runDownload,
  STOPS_THE_QUEUE,
  type PreparedDownload,
} from './download.ts';
import { downloadLimitsOf } from './download-limits.ts';
import { GroupCommit } from './group-commit.ts';
import { runImageJob } from './image-job.ts';
import { FinishRate, ProgressThrottle, type EngineProgress } from './progress.ts';
import { RequestRateLimit } from './rate-limit.ts';
import {
  fetchLinkedBytes,
  keepUnrecordedAnswer,
  recordUnrecordedAnswers,
  type UnrecordedAnswer,
} from './unrecorded-answers.ts';
import { runVideoJob } from './video-job.ts';

export interface EngineOptions {
  store: Store;
  client: GatewayClient;
  /** Where images are written; each batch gets a folder in it. */
  libraryDir: string;
  /** Most requests in flight (the pool's ceiling; 429s lower it for a while). */
  concurrency?: number;
  /** Most images written at once; by default as many as `concurrency` (at least 8). */
  downloadConcurrency?: number;
  /** Optional cap on requests started per minute. */
  requestsPerMinute?: number | null;
  backoff?: Partial<BackoffPolicy>;
  downloadBackoff?: Partial<BackoffPolicy>;
  /** File name template (see library/naming.ts). */
  namingTemplate?: string;
  /** Ask the gateway for this answer format; by default the gateway's own default (a URL). */
  responseFormat?: 'url' | 'b64_json';
  sidecar?: boolean;
  manifest?: boolean;
  thumbnails?: boolean;
  videoPoll?: { initialMs: number; maxMs: number };
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
}

export type IdleReason = 'done' | 'paused' | 'stopped';

/** What the start settled: a crash's leftovers, and the answers kept aside last time. */
export interface StartReport extends RecoveryReport {
  /** Answers the data folder could not record last time (see unrecorded-answers.ts), now recorded. */
  answersRecorded: number;
}

/** What one turn's claim took: jobs now `running` (attempts open) and images `downloading`. */
interface Claim {
  jobs: Array<{ job: Job; attemptId: number | null }>;
  downloads: PreparedDownload[];
  /** Fewer jobs were runnable than slots were free. */
  nothingToClaim: boolean;
}

interface EngineEvents {
  progress: [EngineProgress];
  paused: [{ reason: string; code: string | null; kind: PauseKind }];
  idle: [IdleReason];
}

/** Another process holds this data folder's queue. */
export class EngineBusyError extends Error {}

/**
 * The durable queue. Jobs live in SQLite; the engine claims them only as pool slots free up
 * (never a whole batch in memory), runs them against the gateway, and writes results to disk
 * through a second pool for downloads. Every state change is a transaction in the store.
 */
export class Engine extends EventEmitter<EngineEvents> {
  private readonly store: Store;
  private readonly ctx: EngineContext;
  private readonly requests = new PQueue({ concurrency: 1 });
  private readonly downloads: PQueue;
  private readonly downloadLimit: number;
  private readonly rate: RequestRateLimit | null;
  private readonly running = new Map<number, AbortController>();
  private readonly downloading = new Map<number, AbortController>();
  private readonly stopGraceMs: number;
  /** A stop's grace is over (or it aborts): no download starts any more. */
  private downloadsClosed = false;
  private readonly batchCache = new Map<number, Batch>();
  private readonly finishRate = new FinishRate();
  private readonly throttle: ProgressThrottle;
  /**
   * Every write of a turn of the event loop in one commit: jobs' outcomes, the claims that
   * refill the pools, and (lazily, a few ms later at most) the "done" marks of images
   * already fsynced on disk.
   */
  private readonly writes: GroupCommit;
  private readonly runnerId = randomUUID();
  private ticker: NodeJS.Timeout | null = null;
  private checkpoints: BackgroundCheckpoints | null = null;
  private stopping: Promise<void> | null = null;
  private wakeTimer: { at: number; timer: NodeJS.Timeout } | null = null;
  private pumpQueued = false;
  private state: 'new' | 'running' | 'draining' | 'stopped' = 'new';
  /** stop({ abort }) is under way: requests in flight were aborted. */
  private aborting = false;
  /** Download slots promised to images handed over in a write not yet committed. */
  private downloadsReserved = 0;
  /** Jobs whose outcome waits in the next commit: their request slots free with it. */
  private finishing = 0;
  private startedAt = 0;
  /** The data folder's disk refused a write: the engine stops (see storeFailed). */
  private storeFailure: StoreDiskError | null = null;
  private idleWaiters: Array<(reason: IdleReason) => void> = [];

  constructor(options: EngineOptions) {
    super();
    const now = options.now ?? Date.now;
    this.stopGraceMs = options.stopGraceMs ?? 1500;
    this.store = options.store;
    // a bad template is refused before any work
    const template = compileTemplate(options.namingTemplate ?? DEFAULT_TEMPLATE);
    // As many downloads at once as requests (at least 8): each write waits mostly on the disk
    // (create, fsync), so a smaller pool falls behind the answers and holds the queue back.
    this.downloadLimit = options.downloadConcurrency ?? Math.max(8, options.concurrency ?? 8);
    this.downloads = new PQueue({ concurrency: this.downloadLimit });
    this.rate = options.requestsPerMinute
      ? new RequestRateLimit(options.requestsPerMinute, now())
      : null;
    const aimd = new AdaptiveConcurrency({ max: options.concurrency ?? 8 });
    this.requests.concurrency = aimd.limit;
    this.ctx = {
      store: options.store,
      client: options.client,
      libraryDir: options.libraryDir,
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
      stats: { requestsSent: 0, imagesWritten: 0, bytesWritten: 0 },
      placer: new FilePlacer(),
      commit: (write) => this.commitOutcome(write),
      reserveDownloads: (count) => this.reserveDownloads(count),
      startDownloads: (prepared, reserved) => {
        this.downloadsReserved -= reserved;
        for (const download of prepared) this.launchDownload(download);
      },
      releaseDownloads: (count) => {
        this.downloadsReserved -= count;
      },
      batchOf: (batchId) => this.batchOf(batchId),
      pollingVideos: new Set(),
      wakeAt: (at) => this.wakeAt(at),
      pauseQueue: (reason, code, kind) => this.pause(reason, code, kind),
      queuePaused: (reason, code, kind) => this.announcePause(reason, code, kind),
      keepUnrecorded: (answer, error) => this.keepUnrecorded(answer, error),
    };
    this.writes = new GroupCommit(writeScopes(this.store.db), 5);
    this.throttle = new ProgressThrottle(options.progressIntervalMs ?? 100, () => {
      // Counting reads the database: not worth it when nobody listens.
      if (this.listenerCount('progress') > 0) this.emit('progress', this.progress());
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
    const lease = { id: this.runnerId, pid: process.pid, host: hostname(), heartbeatAt: now };
    let taken: ReturnType<Store['queue']['acquireRunner']>;
    try {
      taken = this.store.queue.acquireRunner(lease, {
        staleAfterMs: LEASE_STALE_AFTER_MS,
        isAlive: processIsAlive,
      });
    } catch (error) {
      throw this.storeErrorOf(error);
    }
    if (!taken.acquired) throw new EngineBusyError(describeHolder(taken.holder, now));
    let beats = 0;
    // Every second: a safety net for wake-ups (a retry due while long jobs run); every
    // fifth, the lease's heartbeat.
    this.ticker = setInterval(() => {
      if (++beats % 5 === 0 && !this.storeFailure && !this.heartbeat()) void this.stop();
      this.pump();
    }, 1_000);
    this.ticker.unref();

    let report: StartReport;
    try {
      const answersRecorded = await recordUnrecordedAnswers(this.store, this.ctx.libraryDir, now);
      report = { ...recoverAfterCrash(this.store, now), answersRecorded };
    } catch (error) {
      clearInterval(this.ticker);
      this.state = 'stopped';
      try {
        this.store.queue.releaseRunner(this.runnerId);
      } catch {
        // the disk refuses this too: the lease goes stale, and the next start takes it
      }
      throw this.storeErrorOf(error);
    }
    this.checkpoints = checkpointInBackground(this.store.db);
    this.ctx.placer.prepare();
    // Holding the lease, no other engine writes these folders: every temp file is a leftover,
    // however recent (a restart right after a kill -9). Swept before any download starts.
    await Promise.all(
      this.store.batches.list().map((batch) =>
        removeStaleTempFiles(join(this.ctx.libraryDir, batch.dirName), {
          olderThanMs: 0,
        }).catch(() => 0),
      ),
    );
    if (this.state !== 'new') return report; // stopped while sweeping
    this.state = 'running';
    this.startedAt = now;
    for (const job of report.resumeVideo) this.launch(job, null);
    this.pump();
    return report;
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
      for (const controller of this.running.values()) controller.abort(ENGINE_STOPPING);
      this.closeDownloads();
    }
    this.stopping ??= this.drainAndStop();
    return this.stopping;
  }

  private async drainAndStop(): Promise<void> {
    this.state = 'draining';
    this.clearWake();
    for (const id of this.ctx.pollingVideos) this.running.get(id)?.abort(ENGINE_STOPPING);
    // Requests first: the last answers may still hand their images to the download pool,
    // which gets a moment to write them before the rest wait, pending, for the next start.
    await this.requests.onIdle();
    // (not when the database refuses writes: a download's done mark could not be kept)
    if (!this.aborting && !this.storeFailure) await this.downloadsFinishedWithin(this.stopGraceMs);
    this.closeDownloads();
    await this.downloads.onIdle();
    await this.ctx.placer.close();
    this.state = 'stopped';
    if (this.ticker) clearInterval(this.ticker);
    // Every outcome is committed before another process may take the queue.
    this.writes.flush();
    await this.checkpoints?.stop();
    try {
      this.store.queue.releaseRunner(this.runnerId);
    } catch (error) {
      // a disk that refuses writes keeps the lease: it goes stale with this process
      if (!storeDiskProblem(error)) throw error;
    }
    this.throttle.flush();
    this.throttle.stop();
    this.settleIdle('stopped');
  }

  /** Resolves once no download runs and none waits to be claimed now, or after `ms`. */
  private async downloadsFinishedWithin(ms: number): Promise<void> {
    // real time, whatever clock the engine was given: this waits on real downloads
    let late = false;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        late = true;
        resolve();
      }, ms);
    });
    const settled = (async () => {
      while (!late) {
        await this.downloads.onIdle();
        // outcomes and done marks committed, then one more claim for what they handed over
        this.writes.flush();
        this.pump();
        await new Promise((resolve) => setImmediate(resolve));
        if (this.downloading.size + this.downloadsReserved === 0 && !this.pumpQueued) return;
      }
    })();
    await Promise.race([settled, deadline]);
    clearTimeout(timer);
  }

  private closeDownloads(): void {
    this.downloadsClosed = true;
    for (const controller of this.downloading.values()) controller.abort(ENGINE_STOPPING);
  }

  /** Resolves when nothing is left to do now: all done, the queue paused, or stopped. */
  whenIdle(): Promise<IdleReason> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.pump();
    });
  }

  /** Pauses the whole queue: requests in flight finish, nothing new starts. Persisted. */
  pause(reason = 'Paused.', code: string | null = 'manual', kind: PauseKind = 'manual'): void {
    if (this.storeFailure || this.store.queue.get().paused) return this.pump();
    try {
      this.store.queue.pause(reason, this.ctx.now(), code, kind);
    } catch (error) {
      // (stopping already, and saying why: a disk that refuses writes cannot record a pause)
      if (this.storeFailed(error)) return;
      throw error;
    }
    this.announcePause(reason, code, kind);
  }

  private announcePause(reason: string, code: string | null, kind: PauseKind): void {
    this.emit('paused', { reason, code, kind });
    this.pump();
  }

  /** Lifts the pause; downloads that stopped on the disk (full, unwritable) are tried again. */
  resume(): void {
    this.store.queue.resume();
    this.store.images.retryFailedDownloads(this.ctx.now(), undefined, [...STOPS_THE_QUEUE]);
    this.pump();
  }

  pauseBatch(batchId: number, paused: boolean): void {
    this.store.batches.setPaused(batchId, paused, paused ? 'Paused.' : null);
    this.batchCache.delete(batchId);
    this.pump();
  }

  /**
   * Holds jobs back, or lets them go again. A held job keeps its state (queued, or retrying
   * with its due time) and is skipped until released; one in flight finishes its request.
   */
  pauseJobs(jobIds: readonly number[], paused: boolean): void {
    this.store.jobs.setPaused(jobIds, paused, this.ctx.now());
    this.pump();
  }

  /** Cancels a job; one in flight has its request aborted. */
  cancelJob(jobId: number): void {
    const controller = this.running.get(jobId);
    if (controller) controller.abort();
    else this.store.jobs.cancel(jobId, this.ctx.now());
    this.pump();
  }

  /** Cancels a batch's waiting jobs (in chunks, so the lock stays short) and aborts its running ones. */
  cancelBatch(batchId: number): number {
    let canceled = 0;
    for (;;) {
      const step = this.store.jobs.cancelBatch(batchId, this.ctx.now());
      canceled += step.canceled;
      for (const id of step.running) this.running.get(id)?.abort();
      if (step.done) break;
    }
    this.pump();
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
    this.store.jobs.setPriority(jobIds, priority, this.ctx.now());
    this.pump();
  }

  /** Reorders batches: the jobs of a batch of higher priority are claimed before any other's. */
  setBatchPriority(batchId: number, priority: number): void {
    this.store.batches.setPriority(batchId, priority);
    this.batchCache.delete(batchId);
    this.pump();
  }

  /**
   * Queues failed jobs again, recording where each retry came from. Uncertain outcomes (the
   * work may have been charged) are only resent with `anyway`.
   */
  retryFailed(options: { batchId?: number; anyway?: boolean } = {}): number {
    const count = this.store.jobs.requeueFailed({
      uncertain: options.anyway ?? false,
      now: this.ctx.now(),
      ...(options.batchId === undefined ? {} : { batchId: options.batchId }),
    });
    this.pump();
    return count;
  }

  /**
   * Every failed download again, from the stored link or bytes: never a new generation. Links
   * that answered "expired" included (some stores answer 404 before a file appears); one that
   * fails again stays failed with its reason. Returns how many were queued.
   */
  retryDownloads(batchId?: number): number {
    const count = this.store.images.retryFailedDownloads(this.ctx.now(), batchId);
    this.pump();
    return count;
  }

  /** A new job for the images a partial success did not return. */
  topUp(jobId: number): Job {
    const job = this.store.jobs.createTopUp(jobId, this.ctx.now());
    this.pump();
    return job;
  }

  /**
   * The person asks again for the images whose link gave something that is not an image: one
   * new job per prompt, for those images only (new, paid requests). Returns what was asked.
   */
  regenerateNotImages(scope: { batchId?: number } = {}): { prompts: number; images: number } {
    const asked = { prompts: 0, images: 0 };
    const now = this.ctx.now();
    for (;;) {
      // each page's jobs get their top-up, so the next read starts past them
      const page = this.store.jobs.listWithNotImages({ ...scope, limit: 500 });
      if (page.length === 0) break;
      for (const job of page) {
        asked.images += this.store.jobs.createTopUp(job.id, now).n;
        asked.prompts += 1;
      }
    }
    if (asked.prompts > 0) this.pump();
    return asked;
  }

  progress(): EngineProgress {
    this.writes.flush();
    const now = this.ctx.now();
    const queue = this.store.queue.get();
    return {
      jobs: this.store.jobs.counts(),
      downloads: this.store.images.counts(),
      inFlight: this.running.size,
      downloading: this.downloading.size,
      concurrency: this.ctx.aimd.limit,
      ...this.ctx.stats,
      jobsPerSecond: this.finishRate.perSecond(now, this.startedAt),
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

  /**
   * Refills both pools once per turn of the event loop, however many things changed: the
   * claims join that turn's commit, and the work starts once it is durable (each job is
   * `running`, its attempt open, before its request leaves).
   */
  private pump(): void {
    // After stop the caller may close the store: a late pump (a task's finally, whenIdle)
    // must not read it, not even for a progress event.
    if (this.state === 'stopped') return this.resolveIdle('stopped');
    this.throttle.touch(this.ctx.now());
    if (this.pumpQueued) return;
    this.pumpQueued = true;
    if (!this.downloadsOpen()) {
      setImmediate(() => {
        this.pumpQueued = false;
        this.settleWhileNotRunning();
      });
      return;
    }
    let ran = false;
    this.writes
      .add(
        () => {
          ran = true;
          this.pumpQueued = false;
          const claim = this.claimWork();
          // Started the moment the claim commits: no code runs in between that could miss
          // these jobs (a cancel, another claim).
          return () => this.startClaimed(claim);
        },
        // after the turn's other writes: a pause or a smaller pool decided there applies here
        { last: true },
      )
      .catch((error: unknown) => {
        // The transaction failed before the claim ran (a lock held past the time-out): the
        // next pump must be able to try again.
        if (!ran) this.pumpQueued = false;
        if (this.storeFailed(error)) return;
        // A refused write (the database locked, a full disk) must not end the process with
        // work in flight: log it and try again shortly.
        console.error('atelier: the scheduler could not claim work:', error);
        if (this.state === 'running') this.wakeAt(this.ctx.now() + 1000);
      });
  }

  private settleWhileNotRunning(): void {
    if (this.state === 'stopped') return this.resolveIdle('stopped');
    if (this.state === 'new' || this.running.size + this.downloading.size > 0) return;
    this.settleIdle('stopped');
  }

  /** Inside the turn's transaction: claims jobs for free request slots and due downloads. */
  private claimWork(): Claim | null {
    // A graceful stop takes no new job, but still writes what the last answers brought.
    if (this.state !== 'running' && !this.downloadsOpen()) return null;
    const now = this.ctx.now();
    this.requests.concurrency = this.ctx.aimd.limit;
    let free =
      this.state === 'running' ? this.ctx.aimd.limit - this.running.size + this.finishing : 0;
    // one request at a time and refused: the next waits as long as the refused one was told
    const heldUntil = this.ctx.aimd.heldUntil;
    if (free > 0 && heldUntil > now) {
      free = 0;
      this.wakeAt(heldUntil);
    }
    if (this.rate && free > 0) {
      free = Math.min(free, this.rate.available(now));
      if (free === 0) this.wakeAt(now + this.rate.waitMs(now));
    }
    const jobs =
      free > 0
        ? this.store.jobs.claimRunnable(free, now).map((job) => ({
            job,
            attemptId: job.videoTaskId ? null : this.store.attempts.start(job.id, now),
          }))
        : [];
    // (handed-over downloads waiting in the pool count too: they are in `downloading`)
    const downloadFree = this.downloadLimit - this.downloading.size - this.downloadsReserved;
    const downloads =
      downloadFree > 0
        ? this.store.images
            .claimDownloads(downloadFree, now)
            .map((image) => prepareDownload(this.ctx, image, this.lookup(image)))
            .filter((download) => download !== null)
        : [];
    return { jobs, downloads, nothingToClaim: free > 0 && jobs.length < free };
  }

  /** Right after the claim's commit: sends the requests and starts the downloads. */
  private startClaimed(claim: Claim | null): void {
    if (!claim) return this.settleWhileNotRunning();
    this.rate?.take(claim.jobs.length, this.ctx.now());
    for (const { job, attemptId } of claim.jobs) this.launch(job, attemptId);
    for (const download of claim.downloads) this.launchDownload(download);
    if (this.state !== 'running') return this.settleWhileNotRunning();
    this.checkIdle(claim.nothingToClaim);
  }

  private launch(job: Job, attemptId: number | null): void {
    const controller = new AbortController();
    this.running.set(job.id, controller);
    void this.requests
      .add(() =>
        job.kind === 'video'
          ? runVideoJob(this.ctx, job, controller.signal, attemptId)
          : runImageJob(this.ctx, job, controller.signal, attemptId!),
      )
      .catch((error: unknown) => {
        // The job stays running in the database: the next start settles it (never resent).
        if (this.storeFailed(error)) return;
        // (a newer attempt of the same job may already run: see below)
        if (this.running.get(job.id) === controller) this.failUnexpectedly(job, error);
        else console.error(`atelier: job ${job.id}'s previous attempt failed unexpectedly:`, error);
      })
      .finally(() => {
        // A retry due at once can be claimed in the very commit of this attempt's outcome,
        // and start before this task has finished: the entry is then the new attempt's.
        if (this.running.get(job.id) === controller) this.running.delete(job.id);
        this.finishRate.record(this.ctx.now());
        this.pump();
      });
  }

  private launchDownload(download: PreparedDownload): void {
    const { image } = download;
    const controller = new AbortController();
    // (handed over after the stop's grace: it waits, pending, for the next start)
    if (!this.downloadsOpen()) controller.abort(ENGINE_STOPPING);
    this.downloading.set(image.id, controller);
    void this.downloads
      .add(() =>
        runDownload(this.ctx, download, controller.signal, (write) => this.markDone(write)),
      )
      .catch((error: unknown) => {
        // The image stays downloading in the database: the next start resumes it.
        if (this.storeFailed(error)) return;
        console.error(`atelier: download of image ${image.id} failed unexpectedly:`, error);
        this.store.images.markDownloadFailed(image.id, {
          code: 'internal',
          reason: `Unexpected error: ${(error as Error).message}`,
          retryAt: null,
          now: this.ctx.now(),
        });
      })
      .finally(() => {
        if (this.downloading.get(image.id) === controller) this.downloading.delete(image.id);
        this.pump();
      });
  }

  private markDone(write: () => void): void {
    this.writes.add(write, { lazy: true }).catch((error: unknown) => {
      // The file is on disk; the next start adopts it (see download.ts).
      if (this.storeFailed(error)) return;
      console.error('atelier: could not record a written image:', error);
    });
  }

  private lookup(image: Image): { job: Job; batch: Batch } {
    const job = this.store.jobs.get(image.jobId);
    if (!job) throw new Error(`Image ${image.id} belongs to a job that no longer exists.`);
    return { job, batch: this.batchOf(job.batchId) };
  }

  /**
   * A job's last write. Its request slot is free once this commits, so the same commit also
   * claims the job that takes the slot: a slot waits one turn of the event loop, not two.
   */
  private commitOutcome(write: () => void): Promise<void> {
    this.finishing++;
    const committed = this.writes.add(write);
    this.pump();
    return committed.finally(() => {
      this.finishing--;
    });
  }

  /**
   * Images arriving as bytes go to the download pool directly while it and a backlog of the
   * same size have room: at most twice the pool's size is held in memory, the rest waits in
   * the database.
   */
  private reserveDownloads(count: number): boolean {
    const held = this.downloading.size + this.downloadsReserved + count;
    if (!this.downloadsOpen() || held > 2 * this.downloadLimit) return false;
    this.downloadsReserved += count;
    return true;
  }

  private downloadsOpen(): boolean {
    return this.state === 'running' || (this.state === 'draining' && !this.downloadsClosed);
  }

  private batchOf(batchId: number): Batch {
    let batch = this.batchCache.get(batchId);
    if (!batch) {
      batch = this.store.batches.get(batchId);
      if (!batch) throw new Error(`Batch ${batchId} no longer exists.`);
      this.batchCache.set(batch.id, batch);
    }
    return batch;
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

  /** A disk's refusal as a StoreDiskError (what to do in words); any other error as it is. */
  private storeErrorOf(error: unknown): unknown {
    const problem = storeDiskProblem(error);
    return problem ? new StoreDiskError(this.store.db.name, problem, error) : error;
  }

  private heartbeat(): boolean {
    try {
      return this.store.queue.heartbeat(this.runnerId, this.ctx.now());
    } catch (error) {
      if (this.storeFailed(error)) return true;
      throw error;
    }
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

  /** A bug or an impossible answer: the job must not stay `running` forever. */
  private failUnexpectedly(job: Job, error: unknown): void {
    console.error(`atelier: job ${job.id} failed unexpectedly:`, error);
    try {
      if (this.store.jobs.get(job.id)?.state !== 'running') return;
      // Its request may have left and been charged: only "retry anyway" may send it again.
      this.store.jobs.fail(job.id, {
        kind: 'uncertain',
        now: this.ctx.now(),
        errorCode: 'internal',
        errorMessage: `Unexpected error: ${(error as Error).message}. The request may have been charged; check its request id, then use "retry anyway".`,
      });
    } catch (failure) {
      // The database itself refused (full disk, locked): the job stays running and the
      // next start's recovery marks it uncertain.
      console.error(`atelier: could not record job ${job.id}'s failure:`, failure);
    }
  }

  private checkIdle(nothingToClaim: boolean): void {
    if (this.running.size > 0 || this.downloading.size > 0) return;
    if (this.store.queue.get().paused) return this.settleIdle('paused');
    if (!nothingToClaim) return;
    const next = [this.store.jobs.nextRetryAt(), this.store.images.nextDownloadAt()].filter(
      (at): at is number => at !== null,
    );
    if (next.length === 0) return this.settleIdle('done');
    this.wakeAt(Math.min(...next));
  }

  private settleIdle(reason: IdleReason): void {
    this.writes.flush();
    this.throttle.flush();
    this.emit('idle', reason);
    this.resolveIdle(reason);
  }

  private resolveIdle(reason: IdleReason): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve(reason);
  }

  /** One timer for the earliest thing waiting (a retry, a download backoff, the rate cap). */
  private wakeAt(at: number): void {
    if (this.state !== 'running') return;
    if (this.wakeTimer && this.wakeTimer.at <= at) return;
    this.clearWake();
    const delay = Math.max(0, at - this.ctx.now());
    this.wakeTimer = {
      at,
      timer: setTimeout(() => {
        this.wakeTimer = null;
        this.pump();
      }, delay),
    };
  }

  private clearWake(): void {
    if (this.wakeTimer) clearTimeout(this.wakeTimer.timer);
    this.wakeTimer = null;
  }
}
