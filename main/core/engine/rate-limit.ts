/**
 * A requests-per-minute cap as a token bucket: up to one second's worth may start at once,
 * then starts are spaced evenly. The scheduler asks before claiming, so a job is never marked
 * `running` while it still waits for its turn (that would make it "uncertain" after a crash).
 */
export class RequestRateLimit {
  private readonly perMs: number;
  private readonly capacity: number;
  private tokens: number;
  private updatedAt: number;

  constructor(requestsPerMinute: number, now: number) {
    if (!(requestsPerMinute > 0)) throw new Error('The requests-per-minute cap must be above 0.');
    this.perMs = requestsPerMinute / 60_000;
    this.capacity = Math.max(1, Math.floor(requestsPerMinute / 60));
    this.tokens = this.capacity;
    this.updatedAt = now;
  }

  /** Whole requests that may start now. */
  available(now: number): number {
    this.refill(now);
    return Math.floor(this.tokens);
  }

  take(count: number, now: number): void {
    this.refill(now);
    this.tokens -= count;
  }

  /** Milliseconds until one more request may start. */
  waitMs(now: number): number {
    this.refill(now);
    return this.tokens >= 1 ? 0 : Math.ceil((1 - this.tokens) / this.perMs);
  }

  private refill(now: number): void {
    this.tokens = Math.min(this.capacity, this.tokens + (now - this.updatedAt) * this.perMs);
    this.updatedAt = now;
  }
}
