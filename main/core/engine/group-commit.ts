/**
 * Runs small writes together in one transaction, a few milliseconds after the first arrives:
 * one commit for many. Only for writes that may be lost in a crash without losing anything
 * that matters (a "done" mark for a file already fsynced on disk: redoing the download finds
 * the identical file in place).
 */
export class GroupCommit {
  private pending: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly transaction: (fn: () => void) => void;
  private readonly delayMs: number;
  private readonly maxBatch: number;

  constructor(transaction: (fn: () => void) => void, delayMs = 5, maxBatch = 256) {
    this.transaction = transaction;
    this.delayMs = delayMs;
    this.maxBatch = maxBatch;
  }

  add(write: () => void): void {
    this.pending.push(write);
    if (this.pending.length >= this.maxBatch) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.delayMs);
  }

  /** Commits what waits now (before reporting, stopping or reading counts). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const writes = this.pending;
    if (writes.length === 0) return;
    this.pending = [];
    try {
      this.transaction(() => writes.forEach((write) => write()));
    } catch (error) {
      // One bad write must not take the others with it: redo them one by one.
      for (const write of writes) {
        try {
          this.transaction(write);
        } catch (single) {
          console.error('atelier: a grouped write failed:', single);
        }
      }
      if (writes.length === 1) console.error('atelier: a grouped write failed:', error);
    }
  }
}
