import { storeDiskProblem } from '../store/store-errors.ts';
import type { WriteScopes } from '../store/transaction.ts';
import { consoleLogger, type Logger } from '../logger.ts';

/**
 * One write of a group. It may return a function to run right after its commit, before
 * anything else happens (no other code runs in between: the work it starts sees exactly what
 * was committed).
 */
export type GroupWrite = () => void | (() => void);

interface PendingWrite {
  write: GroupWrite;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface AddOptions {
  /** May wait up to the lazy delay for company (a "done" mark: nobody waits on it). */
  lazy?: boolean;
  /** Runs after the group's other writes, seeing all of them (the scheduler's claim). */
  last?: boolean;
}

/**
 * Runs the small writes that arrive together in one transaction: one commit for many.
 * An urgent write is committed at the end of the current turn of the event loop (with the
 * others that arrived in it), which adds no waiting; a lazy one may wait up to `lazyDelayMs`
 * for company, and rides along with any commit that happens first. A caller that must know
 * its write is durable awaits the promise.
 */
export class GroupCommit {
  private pending: PendingWrite[] = [];
  private pendingLast: PendingWrite[] = [];
  private immediate: NodeJS.Immediate | null = null;
  private timer: NodeJS.Timeout | null = null;
  private flushing = false;
  private readonly scopes: WriteScopes;
  private readonly lazyDelayMs: number;
  private readonly maxBatch: number;
  private readonly log: Logger;
  private readonly onCommit: (() => void) | undefined;

  /**
   * `hooks.onCommit` runs after each transaction that committed, once its writes' follow-ups
   * ran: what a listener then reads is what was committed.
   */
  constructor(
    scopes: WriteScopes,
    lazyDelayMs = 5,
    maxBatch = 256,
    hooks: { log?: Logger; onCommit?: () => void } = {},
  ) {
    this.scopes = scopes;
    this.lazyDelayMs = lazyDelayMs;
    this.maxBatch = maxBatch;
    this.log = hooks.log ?? consoleLogger;
    this.onCommit = hooks.onCommit;
  }

  /** Resolves once the write is committed; rejects with its own error if it failed. */
  add(write: GroupWrite, options: AddOptions = {}): Promise<void> {
    return new Promise((resolve, reject) => {
      (options.last ? this.pendingLast : this.pending).push({ write, resolve, reject });
      const size = this.pending.length + this.pendingLast.length;
      if (size >= this.maxBatch && !this.flushing) this.flush();
      else if (!options.lazy || size >= this.maxBatch) {
        this.immediate ??= setImmediate(() => this.flush());
      } else if (!this.immediate && !this.timer) {
        this.timer = setTimeout(() => this.flush(), this.lazyDelayMs);
      }
    });
  }

  /** What waits, lazy writes included, commits at the end of this turn of the event loop. */
  hurry(): void {
    if (this.pending.length + this.pendingLast.length === 0) return;
    this.immediate ??= setImmediate(() => this.flush());
  }

  /** Commits what waits now (before stopping, or for a caller that needs exact counts). */
  flush(): void {
    // A write (or a commit's listener) that asks for a flush must not commit the writes
    // queued behind it inside this transaction: they get their own, already scheduled.
    if (this.flushing) return;
    if (this.immediate) clearImmediate(this.immediate);
    if (this.timer) clearTimeout(this.timer);
    this.immediate = null;
    this.timer = null;
    const writes = [...this.pending, ...this.pendingLast];
    if (writes.length === 0) return;
    this.pending = [];
    this.pendingLast = [];
    this.flushing = true;
    try {
      this.commit(writes);
    } finally {
      this.flushing = false;
    }
  }

  /**
   * One transaction for the group, each write in a savepoint of its own: a write that throws is
   * rolled back alone and fails alone, the others commit together, and no write ever runs twice.
   */
  private commit(writes: PendingWrite[]): void {
    const after: Array<(() => void) | void> = [];
    const failed = new Map<number, unknown>();
    try {
      this.scopes.transaction(() => {
        writes.forEach(({ write }, i) => {
          try {
            after[i] = this.scopes.savepoint(write);
          } catch (error) {
            // A full or read-only disk refuses every write: the group fails whole, or a small
            // write (a claim that sends new requests) could commit while the answers are lost.
            if (storeDiskProblem(error)) throw error;
            failed.set(i, error);
          }
        });
      });
    } catch (error) {
      for (const { reject } of writes) reject(error);
      return;
    }
    writes.forEach(({ resolve, reject }, i) => {
      if (failed.has(i)) return reject(failed.get(i));
      this.runAfterCommit(after[i]);
      resolve();
    });
    if (this.onCommit) this.runAfterCommit(this.onCommit);
  }

  private runAfterCommit(after: (() => void) | void): void {
    try {
      after?.();
    } catch (error) {
      // What was committed stays committed; the caller's own code failed after it.
      this.log.error('work after a commit failed:', error);
    }
  }
}
