interface PendingWrite {
  write: () => void;
  resolve: () => void;
  reject: (error: unknown) => void;
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
  private immediate: NodeJS.Immediate | null = null;
  private timer: NodeJS.Timeout | null = null;
  private flushing = false;
  private readonly transaction: (fn: () => void) => void;
  private readonly lazyDelayMs: number;
  private readonly maxBatch: number;

  constructor(transaction: (fn: () => void) => void, lazyDelayMs = 5, maxBatch = 256) {
    this.transaction = transaction;
    this.lazyDelayMs = lazyDelayMs;
    this.maxBatch = maxBatch;
  }

  /** Resolves once the write is committed; rejects with its own error if it failed. */
  add(write: () => void, options: { lazy?: boolean } = {}): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ write, resolve, reject });
      if (this.pending.length >= this.maxBatch) this.flush();
      else if (!options.lazy) this.immediate ??= setImmediate(() => this.flush());
      else if (!this.immediate && !this.timer) {
        this.timer = setTimeout(() => this.flush(), this.lazyDelayMs);
      }
    });
  }

  /** Commits what waits now (before reporting, stopping or reading counts). */
  flush(): void {
    // A write that asks for a flush (a progress report reading counts) must not commit the
    // writes queued behind it inside this transaction: they get their own, already scheduled.
    if (this.flushing) return;
    if (this.immediate) clearImmediate(this.immediate);
    if (this.timer) clearTimeout(this.timer);
    this.immediate = null;
    this.timer = null;
    const writes = this.pending;
    if (writes.length === 0) return;
    this.pending = [];
    this.flushing = true;
    try {
      this.commit(writes);
    } finally {
      this.flushing = false;
    }
  }

  private commit(writes: PendingWrite[]): void {
    try {
      this.transaction(() => writes.forEach(({ write }) => write()));
      for (const { resolve } of writes) resolve();
    } catch {
      // One bad write must not take the others with it: redo them one by one.
      for (const { write, resolve, reject } of writes) {
        try {
          this.transaction(write);
          resolve();
        } catch (error) {
          reject(error);
        }
      }
    }
  }
}
