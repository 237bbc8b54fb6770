import PQueue from 'p-queue';
import type { Batch, Image, Job } from '../store/rows.ts';
import type { BudgetKeeper, BudgetPause } from './budget.ts';
import type { Store } from '../store/store.ts';
import { ENGINE_STOPPING, type EngineContext } from './context.ts';
import { prepareDownload, runDownload, type PreparedDownload } from './download.ts';
import { DownloadHold } from './download-hold.ts';
import { GroupCommit } from './group-commit.ts';
import { runImageJob } from './image-job.ts';
import { FinishRate, type ProgressThrottle } from './progress.ts';
import type { RequestRateLimit } from './rate-limit.ts';
import { runVideoJob } from './video-job.ts';
import { writeScopes } from '../store/transaction.ts';

export type IdleReason = 'done' | 'paused' | 'stopped';

/** Where the engine is in its life: the scheduler claims only while `running`. */
export type EnginePhase = 'new' | 'running' | 'draining' | 'stopped';

/** What one turn's claim took: jobs now `running` (attempts open) and images `downloading`. */
interface Claim {
  jobs: Array<{ job: Job; attemptId: number | null }>;
  downloads: PreparedDownload[];
  /** Fewer jobs were runnable than slots were free. */
  nothingToClaim: boolean;
  /** The claim stopped before a job that would pass a spending cap: the queue paused. */
  budgetPause: BudgetPause | null;
}

/** The one timer the scheduler arms for its next wake-up (the engine's clock, for tests). */
export interface WakeTimers {
  set(wake: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const SYSTEM_TIMERS: WakeTimers = {
  set: (wake, ms) => setTimeout(wake, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * The longest delay a timer takes (2³¹−1 ms, about 24.8 days): Node turns a longer one into
 * 1 ms, with a TimeoutOverflowWarning, and the wake-up would spin. A wake-up further away is
 * armed for this long; that early wake finds nothing due and arms the rest.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** How long a download waits when requests are leaving (see DownloadHold). */
export const DOWNLOAD_HOLD_MS = 2;

export interface SchedulerOptions {
  ctx: EngineContext;
  /** Where the wake-up timer is armed (the system's timers by default). */
  timers?: WakeTimers;
  phase: () => EnginePhase;
  downloadLimit: number;
  /** How long a download started beside requests waits for them (DOWNLOAD_HOLD_MS). */
  downloadHoldMs?: number;
  rate: RequestRateLimit | null;
  /** The spending caps each claim checks before a request leaves. */
  budget: BudgetKeeper;
  throttle: ProgressThrottle;
  /** A disk that refuses writes stops the engine: true when `error` is one (see Engine). */
  storeFailed: (error: unknown) => boolean;
  /** Nothing is left to do now (emitted as the engine's `idle`). */
  onIdle: (reason: IdleReason) => void;
  /** A transaction of the scheduler's writes committed (see GroupCommit). */
  onCommit: () => void;
}

/**
 * The two pools (requests, downloads) and what fills them: claims from the store as slots
 * free up, the work they start, and the moment nothing is left to do.
 */
export class Scheduler {
  private readonly ctx: EngineContext;
  private readonly store: Store;
  private readonly phase: () => EnginePhase;
  private readonly storeFailed: (error: unknown) => boolean;
  private readonly onIdle: (reason: IdleReason) => void;
  private readonly requests = new PQueue({ concurrency: 1 });
  private readonly downloads: PQueue;
  private downloadLimit: number;
  private rate: RequestRateLimit | null;
  private readonly budget: BudgetKeeper;
  private readonly running = new Map<number, AbortController>();
  private readonly downloading = new Map<number, AbortController>();
  /** A stop's grace is over (or it aborts): no download starts any more. */
  private downloadsClosed = false;
  /** Downloads that would leave with requests wait a moment: the requests go first. */
  private readonly hold: DownloadHold;
  private readonly batchCache = new Map<number, Batch>();
  private readonly finishRate = new FinishRate();
  private readonly throttle: ProgressThrottle;
  /**
   * Every write of a turn of the event loop in one commit: jobs' outcomes and the claims that
   * refill the request pool. While requests are in flight, the download side's writes ("done"
   * marks, names' reservations, the claims refilling the download pool) wait up to the lazy
   * delay to ride along with an outcome's commit instead of making commits of their own.
   */
  private readonly writes: GroupCommit;
  private wakeTimer: { at: number; timer: unknown } | null = null;
  private readonly timers: WakeTimers;
  private pumpQueued = false;
  /** Download slots promised to images handed over in a write not yet committed. */
  private downloadsReserved = 0;
  /** Jobs whose outcome waits in the next commit: their request slots free with it. */
  private finishing = 0;
  private idleWaiters: Array<(reason: IdleReason) => void> = [];

  constructor(options: SchedulerOptions) {
    this.ctx = options.ctx;
    this.timers = options.timers ?? SYSTEM_TIMERS;
    this.store = options.ctx.store;
    this.phase = options.phase;
    this.storeFailed = options.storeFailed;
    this.onIdle = options.onIdle;
    this.downloadLimit = options.downloadLimit;
    this.downloads = new PQueue({ concurrency: this.downloadLimit });
    this.hold = new DownloadHold(options.downloadHoldMs ?? DOWNLOAD_HOLD_MS);
    this.rate = options.rate;
    this.budget = options.budget;
    this.throttle = options.throttle;
    this.requests.concurrency = this.ctx.aimd.limit;
    this.writes = new GroupCommit(writeScopes(this.store.db), 5, 256, {
      log: this.ctx.log,
      onCommit: options.onCommit,
    });
  }

  /** Requests in flight now. */
  get inFlight(): number {
    return this.running.size;
  }

  /** Downloads in flight now. */
  get downloadingNow(): number {
    return this.downloading.size;
  }

  jobsPerSecond(now: number, since: number): number {
    return this.finishRate.perSecond(now, since);
  }

  /** The most downloads at once, changed while running: it applies to the next claims. */
  setDownloadLimit(limit: number): void {
    this.downloadLimit = limit;
    this.downloads.concurrency = limit;
  }

  /** The requests-per-minute cap, replaced (a fresh bucket) or removed (null). */
  setRate(rate: RequestRateLimit | null): void {
    this.rate = rate;
  }

  /** Commits what waits now (before reporting, stopping or reading counts). */
  flushWrites(): void {
    this.writes.flush();
  }

  /** Resolves when nothing is left to do now: all done, the queue paused, or stopped. */
  whenIdle(): Promise<IdleReason> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.pump();
    });
  }

  /** Aborts a job's request in flight; false when none runs. */
  abortJob(jobId: number, reason?: unknown): boolean {
    const controller = this.running.get(jobId);
    controller?.abort(reason);
    return controller !== undefined;
  }

  /** stop({ abort }): every request in flight is aborted. */
  abortRequests(): void {
    for (const controller of this.running.values()) controller.abort(ENGINE_STOPPING);
  }

  /** A batch's row changed (priority, pause): read it again at the next claim. */
  forgetBatch(batchId: number): void {
    this.batchCache.delete(batchId);
  }

  /** Resolves once every request task has ended. */
  requestsIdle(): Promise<void> {
    return this.requests.onIdle();
  }

  /**
   * A stop's end for downloads: `graceMs` (null: none) for the running ones to finish, then
   * the rest are aborted and go back to pending. Resolves once every download task has ended.
   */
  async drainDownloads(graceMs: number | null): Promise<void> {
    this.hold.release();
    if (graceMs !== null) await this.downloadsFinishedWithin(graceMs);
    this.closeDownloads();
    await this.downloads.onIdle();
  }

  /**
   * Refills both pools once per turn of the event loop, however many things changed: the
   * claims join that turn's commit, and the work starts once it is durable (each job is
   * `running`, its attempt open, before its request leaves). `lazy`: a claim no slot waits
   * on, which may wait the lazy delay for another commit to ride with.
   */
  pump(options: { lazy?: boolean } = {}): void {
    // After stop the caller may close the store: a late pump (a task's finally, whenIdle)
    // must not read it, not even for a progress event.
    if (this.phase() === 'stopped') return this.resolveIdle('stopped');
    if (this.pumpQueued) {
      // a lazy claim already waits: this one is not
      if (!options.lazy) this.writes.hurry();
      return;
    }
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
        { last: true, lazy: options.lazy ?? false },
      )
      .catch((error: unknown) => {
        // The transaction failed before the claim ran (a lock held past the time-out): the
        // next pump must be able to try again.
        if (!ran) this.pumpQueued = false;
        if (this.storeFailed(error)) return;
        // A refused write (the database locked, a full disk) must not end the process with
        // work in flight: log it and try again shortly.
        this.ctx.log.error('the scheduler could not claim work:', error);
        if (this.phase() === 'running') this.wakeAt(this.ctx.now() + 1000);
      });
  }

  private settleWhileNotRunning(): void {
    const phase = this.phase();
    if (phase === 'stopped') return this.resolveIdle('stopped');
    if (phase === 'new' || this.running.size + this.downloading.size > 0) return;
    this.settleIdle('stopped');
  }

  /** Inside the turn's transaction: claims jobs for free request slots and due downloads. */
  private claimWork(): Claim | null {
    const running = this.phase() === 'running';
    // A graceful stop takes no new job, but still writes what the last answers brought.
    if (!running && !this.downloadsOpen()) return null;
    const now = this.ctx.now();
    this.requests.concurrency = this.ctx.aimd.limit;
    let free = running ? this.ctx.aimd.limit - this.running.size + this.finishing : 0;
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
    // (the caps are read in this claim's transaction: what it admits is what it sends)
    const budget = free > 0 ? this.budget.open(now) : null;
    const admit = budget ? (id: number) => budget.admit(id) : undefined;
    const jobs =
      free > 0
        ? this.store.jobs.claimRunnable(free, now, admit).map((job) => ({
            job,
            attemptId: job.videoTaskId ? null : this.store.attempts.start(job.id, now),
          }))
        : [];
    // Paused in this very commit, before the request that would pass the cap.
    const budgetPause = budget?.pause() ?? null;
    if (budgetPause && !this.store.queue.get().paused) {
      const { reason, code, stop } = budgetPause;
      this.store.queue.pause(reason, now, code, 'budget', stop);
    }
    // (handed-over downloads waiting in the pool count too: they are in `downloading`)
    const downloadFree = this.downloadLimit - this.downloading.size - this.downloadsReserved;
    const downloads =
      downloadFree > 0
        ? this.store.images
            .claimDownloads(downloadFree, now)
            .map((image) => prepareDownload(this.ctx, image, this.lookup(image)))
            .filter((download) => download !== null)
        : [];
    return {
      jobs,
      downloads,
      nothingToClaim: free > 0 && jobs.length < free,
      budgetPause,
    };
  }

  /** Right after the claim's commit: sends the requests and starts the downloads. */
  private startClaimed(claim: Claim | null): void {
    if (!claim) return this.settleWhileNotRunning();
    this.rate?.take(claim.jobs.length, this.ctx.now());
    for (const { job, attemptId } of claim.jobs) this.launch(job, attemptId);
    for (const download of claim.downloads) this.launchDownload(download);
    if (claim.budgetPause) {
      const { reason, code } = claim.budgetPause;
      this.ctx.queuePaused(reason, code, 'budget');
    }
    if (this.phase() !== 'running') return this.settleWhileNotRunning();
    this.checkIdle(claim.nothingToClaim);
  }

  /** Sends a job's request (a video already submitted: polls it) in the request pool. */
  launch(job: Job, attemptId: number | null): void {
    const controller = new AbortController();
    this.running.set(job.id, controller);
    this.hold.requestSent();
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
        else this.ctx.log.error(`job ${job.id}'s previous attempt failed unexpectedly:`, error);
      })
      .finally(() => {
        // A retry due at once can be claimed in the very commit of this attempt's outcome,
        // and start before this task has finished: the entry is then the new attempt's.
        if (this.running.get(job.id) === controller) this.running.delete(job.id);
        // nothing in flight: no request for a held download to make way for (a run's end)
        if (this.running.size === 0) this.hold.release();
        this.finishRate.record(this.ctx.now());
        // (an outcome's own commit claimed the job for its slot already: this claim is for the
        // rest, a failure recorded outside it; it waits for company while others are in flight)
        this.pump({ lazy: this.running.size > 0 });
      });
  }

  private launchDownload(download: PreparedDownload): void {
    const { image } = download;
    const controller = new AbortController();
    // (handed over after the stop's grace: it waits, pending, for the next start)
    if (!this.downloadsOpen()) controller.abort(ENGINE_STOPPING);
    this.downloading.set(image.id, controller);
    const begin = () => this.runInPool(download, controller);
    // (bytes in hand send nothing: only a link's GET could delay a request at the gateway)
    if (this.phase() === 'running' && !download.payload) this.hold.start(begin);
    else begin();
  }

  private runInPool(download: PreparedDownload, controller: AbortController): void {
    const { image } = download;
    void this.downloads
      .add(() =>
        runDownload(this.ctx, download, controller.signal, (write) => this.markDone(write)),
      )
      .catch((error: unknown) => {
        // The image stays downloading in the database: the next start resumes it.
        if (this.storeFailed(error)) return;
        this.ctx.log.error(`download of image ${image.id} failed unexpectedly:`, error);
        this.store.images.markDownloadFailed(image.id, {
          code: 'internal',
          reason: `Unexpected error: ${(error as Error).message}`,
          retryAt: null,
          now: this.ctx.now(),
        });
        this.ctx.downloadChanged(image);
      })
      .finally(() => {
        if (this.downloading.get(image.id) === controller) this.downloading.delete(image.id);
        // While requests are in flight, the claim that refills this slot rides with the next
        // outcome's commit (or waits the lazy delay) instead of a commit of its own.
        this.pump({ lazy: this.running.size > 0 });
      });
  }

  /** Starts downloads claimed in a committed write, giving back `reserved` slots. */
  startDownloads(prepared: PreparedDownload[], reserved: number): void {
    this.downloadsReserved -= reserved;
    for (const download of prepared) this.launchDownload(download);
  }

  /** The write that reserved `count` slots failed: nothing was claimed. */
  releaseDownloads(count: number): void {
    this.downloadsReserved -= count;
  }

  /**
   * A download's write (its name's reservation): while requests are in flight it rides with
   * the next outcome's commit (or waits the lazy delay) instead of a commit of its own.
   */
  commitWrite(write: () => void): Promise<void> {
    return this.writes.add(write, { lazy: this.running.size > 0 });
  }

  private markDone(write: () => void): Promise<boolean> {
    // With no request in flight, no job's outcome is coming for the mark to commit with: it
    // commits in this turn, so that the last downloads of a run are not held by the lazy delay.
    return this.writes.add(write, { lazy: this.running.size > 0 }).then(
      () => true,
      (error: unknown) => {
        // The file is on disk; the next start adopts it (see download.ts).
        if (!this.storeFailed(error))
          this.ctx.log.error('could not record a written image:', error);
        return false;
      },
    );
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
  commitOutcome(write: () => void): Promise<void> {
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
  reserveDownloads(count: number): boolean {
    const held = this.downloading.size + this.downloadsReserved + count;
    if (!this.downloadsOpen() || held > 2 * this.downloadLimit) return false;
    this.downloadsReserved += count;
    return true;
  }

  private downloadsOpen(): boolean {
    const phase = this.phase();
    return phase === 'running' || (phase === 'draining' && !this.downloadsClosed);
  }

  batchOf(batchId: number): Batch {
    let batch = this.batchCache.get(batchId);
    if (!batch) {
      batch = this.store.batches.get(batchId);
      if (!batch) throw new Error(`Batch ${batchId} no longer exists.`);
      this.batchCache.set(batch.id, batch);
    }
    return batch;
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

  /** No download starts any more; the running ones are aborted (back to pending). */
  closeDownloads(): void {
    this.downloadsClosed = true;
    for (const controller of this.downloading.values()) controller.abort(ENGINE_STOPPING);
    // (aborted: each goes back to pending in the pool, as a running one does)
    this.hold.release();
  }

  /** A bug or an impossible answer: the job must not stay `running` forever. */
  private failUnexpectedly(job: Job, error: unknown): void {
    this.ctx.log.error(`job ${job.id} failed unexpectedly:`, error);
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
      this.ctx.log.error(`could not record job ${job.id}'s failure:`, failure);
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

  /** Everything committed, a last progress event, then `idle` and its waiters. */
  settleIdle(reason: IdleReason): void {
    this.writes.flush();
    this.throttle.flush();
    this.onIdle(reason);
    this.resolveIdle(reason);
  }

  private resolveIdle(reason: IdleReason): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve(reason);
  }

  /** One timer for the earliest thing waiting (a retry, a download backoff, the rate cap). */
  wakeAt(at: number): void {
    if (this.phase() !== 'running') return;
    if (this.wakeTimer && this.wakeTimer.at <= at) return;
    this.clearWake();
    const delay = Math.min(Math.max(0, at - this.ctx.now()), MAX_TIMER_MS);
    this.wakeTimer = {
      at,
      timer: this.timers.set(() => {
        this.wakeTimer = null;
        this.pump();
      }, delay),
    };
  }

  clearWake(): void {
    if (this.wakeTimer) this.timers.clear(this.wakeTimer.timer);
    this.wakeTimer = null;
  }
}
