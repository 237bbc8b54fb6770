import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { removeStaleTempFiles } from '../library/library-fs.ts';
import { recoverAfterCrash, type RecoveryReport } from '../store/recovery.ts';
import { describeHolder, LEASE_STALE_AFTER_MS, processIsAlive } from '../store/runner-lease.ts';
import { StoreDiskError, storeDiskProblem } from '../store/store-errors.ts';
import type { Store } from '../store/store.ts';
import { recordUnrecordedAnswers } from './unrecorded-answers.ts';

/** What the start settled: a crash's leftovers, and the answers kept aside last time. */
export interface StartReport extends RecoveryReport {
  /** Answers the data folder could not record last time (see unrecorded-answers.ts), now recorded. */
  answersRecorded: number;
}

/** Another process holds this data folder's queue. */
export class EngineBusyError extends Error {}

export interface LeaseKeeperOptions {
  store: Store;
  now: () => number;
  /** A disk that refuses writes stops the engine: true when `error` is one (see Engine). */
  storeFailed: (error: unknown) => boolean;
  /** The disk already refused a write: no heartbeat is tried. */
  hasFailed: () => boolean;
}

/**
 * This process's hold on the data folder's queue: taken at start (refused while another live
 * process holds it), renewed by a heartbeat, given back at stop; and what a start settles
 * while holding it (a crash's leftovers, temp files).
 */
export class LeaseKeeper {
  private readonly store: Store;
  private readonly now: () => number;
  private readonly storeFailed: (error: unknown) => boolean;
  private readonly hasFailed: () => boolean;
  private readonly runnerId = randomUUID();
  private ticker: NodeJS.Timeout | null = null;

  constructor(options: LeaseKeeperOptions) {
    this.store = options.store;
    this.now = options.now;
    this.storeFailed = options.storeFailed;
    this.hasFailed = options.hasFailed;
  }

  /** Takes the queue: an EngineBusyError while another live process holds it. */
  acquire(now: number): void {
    const lease = { id: this.runnerId, pid: process.pid, host: hostname(), heartbeatAt: now };
    let taken: ReturnType<Store['queue']['acquireRunner']>;
    try {
      taken = this.store.queue.acquireRunner(lease, {
        staleAfterMs: LEASE_STALE_AFTER_MS,
        isAlive: processIsAlive,
      });
    } catch (error) {
      throw storeErrorOf(this.store, error);
    }
    if (!taken.acquired) throw new EngineBusyError(describeHolder(taken.holder, now));
  }

  /**
   * Every second `tick` (a safety net for wake-ups: a retry due while long jobs run); every
   * fifth, the lease's heartbeat, and `lost` when another process took the lease.
   */
  startTicker(tick: () => void, lost: () => void): void {
    let beats = 0;
    this.ticker = setInterval(() => {
      if (++beats % 5 === 0 && !this.hasFailed() && !this.heartbeat()) lost();
      tick();
    }, 1_000);
    this.ticker.unref();
  }

  stopTicker(): void {
    if (this.ticker) clearInterval(this.ticker);
  }

  /**
   * Records the answers a full data folder kept aside last time, then settles what a crash
   * left. On failure the lease is given back (the ticker stopped) and the error is thrown as a
   * StoreDiskError when the disk refused.
   */
  async recoverOnStart(libraryDir: string, now: number): Promise<StartReport> {
    try {
      const answersRecorded = await recordUnrecordedAnswers(this.store, libraryDir, now);
      return { ...recoverAfterCrash(this.store, now), answersRecorded };
    } catch (error) {
      this.stopTicker();
      try {
        this.store.queue.releaseRunner(this.runnerId);
      } catch {
        // the disk refuses this too: the lease goes stale, and the next start takes it
      }
      throw storeErrorOf(this.store, error);
    }
  }

  /**
   * Holding the lease, no other engine writes these folders: every temp file is a leftover,
   * however recent (a restart right after a kill -9). Swept before any download starts.
   */
  async sweepTempFiles(libraryDir: string): Promise<void> {
    await Promise.all(
      this.store.batches.list().map((batch) =>
        removeStaleTempFiles(join(libraryDir, batch.dirName), {
          olderThanMs: 0,
          library: libraryDir,
        }).catch(() => 0),
      ),
    );
  }

  /** Gives the queue back for another process. */
  release(): void {
    try {
      this.store.queue.releaseRunner(this.runnerId);
    } catch (error) {
      // a disk that refuses writes keeps the lease: it goes stale with this process
      if (!storeDiskProblem(error)) throw error;
    }
  }

  private heartbeat(): boolean {
    try {
      return this.store.queue.heartbeat(this.runnerId, this.now());
    } catch (error) {
      if (this.storeFailed(error)) return true;
      throw error;
    }
  }
}

/** A disk's refusal as a StoreDiskError (what to do in words); any other error as it is. */
function storeErrorOf(store: Store, error: unknown): unknown {
  const problem = storeDiskProblem(error);
  return problem ? new StoreDiskError(store.db.name, problem, error) : error;
}
