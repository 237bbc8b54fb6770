import type { PauseKind } from '../../../shared/jobs/pause.ts';
import { RATE_WINDOW_MS } from '../../../shared/jobs/rate.ts';
import type { DownloadCounts } from '../store/image-repository.ts';
import type { StateCounts } from '../store/job-repository.ts';

/** What the queue looks like now: what the CLI's progress bar and the renderer show. */
export interface EngineProgress {
  jobs: StateCounts;
  downloads: DownloadCounts;
  /** Requests and downloads in flight now. */
  inFlight: number;
  downloading: number;
  /** The pool's current size (lowered after 429s, grown back slowly). */
  concurrency: number;
  requestsSent: number;
  imagesWritten: number;
  bytesWritten: number;
  /** Jobs finished per second over the last few seconds. */
  jobsPerSecond: number;
  paused: { reason: string; code: string | null; kind: PauseKind } | null;
  elapsedMs: number;
}

/** Jobs finished per second over a sliding window, from the finishing times. */
export class FinishRate {
  private readonly times: number[] = [];
  private readonly windowMs: number;

  constructor(windowMs = RATE_WINDOW_MS) {
    this.windowMs = windowMs;
  }

  record(now: number): void {
    this.times.push(now);
    this.trim(now);
  }

  perSecond(now: number, since: number): number {
    this.trim(now);
    const span = Math.min(this.windowMs, now - since);
    return span > 0 ? (this.times.length * 1000) / span : 0;
  }

  private trim(now: number): void {
    let drop = 0;
    while (drop < this.times.length && this.times[drop]! < now - this.windowMs) drop++;
    if (drop > 0) this.times.splice(0, drop);
  }
}

/**
 * Coalesces progress: however many jobs change, listeners hear at most one event per
 * interval (about 10 a second), never one per transition.
 */
export class ProgressThrottle {
  private timer: NodeJS.Timeout | null = null;
  private last = 0;
  private readonly intervalMs: number;
  private readonly emit: () => void;

  constructor(intervalMs: number, emit: () => void) {
    this.intervalMs = intervalMs;
    this.emit = emit;
  }

  /**
   * Something changed: emit once at the interval's end, and never inside the caller's turn
   * (after a commit, the tasks it finished first leave the pools, so the report counts them out).
   */
  touch(now: number): void {
    if (this.timer) return;
    const wait = Math.max(0, this.last + this.intervalMs - now);
    this.timer = setTimeout(() => this.fire(Date.now()), wait);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.fire(Date.now());
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private fire(now: number): void {
    this.timer = null;
    this.last = now;
    this.emit();
  }
}
