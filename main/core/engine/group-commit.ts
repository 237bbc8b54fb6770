interface PendingWrite {
  write: () => void;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Runs the small writes that arrive together in one transaction: one commit for many. With
 * `delayMs` 0 the group is the current turn of the event loop (answers that arrived together),
 * which adds no waiting; a caller that must know its write is durable awaits the promise.
 */
export class GroupCommit {
  private pending: PendingWrite[] = [];
  private scheduled = false;
  private readonly transaction: (fn: () => void) => void;
  private readonly delayMs: number;
  private readonly maxBatch: number;

  constructor(transaction: (fn: () => void) => void, delayMs = 0, maxBatch = 256) {
    this.transaction = transaction;
    this.delayMs = delayMs;
    this.maxBatch = maxBatch;
  }

  /** Resolves once the write is committed; rejects with its own error if it failed. */
  add(write: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ write, resolve, reject });
      if (this.pending.length >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        if (this.delayMs > 0) setTimeout(() => this.flush(), this.delayMs);
        else setImmediate(() => this.flush());
      }
    });
  }

  /** Commits what waits now (before reporting, stopping or reading counts). */
  flush(): void {
    this.scheduled = false;
    const writes = this.pending;
    if (writes.length === 0) return;
    this.pending = [];
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
