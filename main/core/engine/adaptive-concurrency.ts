/**
 * How many requests may be in flight: additive increase, multiplicative decrease (AIMD),
 * the rule TCP uses to share a link. A 429 halves the limit at once; it then grows back by
 * one after each `increaseAfter` successes in a row, up to the configured maximum.
 */
export interface AimdOptions {
  max: number;
  min?: number;
  decreaseFactor?: number;
  increaseAfter?: number;
  /** 429s closer together than this count as one signal (one burst of in-flight refusals). */
  cooldownMs?: number;
  /** Refusals in a row at the floor after which the rate limit counts as persistent. */
  pauseAfter?: number;
}

/**
 * 429s in a row, with no success in between, received while the pool is at its floor (one
 * request at a time), after which the queue pauses instead of spending jobs' attempts.
 */
export const RATE_LIMIT_PAUSE_AFTER = 5;

export class AdaptiveConcurrency {
  private readonly min: number;
  private readonly decreaseFactor: number;
  private readonly increaseAfter: number;
  private readonly cooldownMs: number;
  private readonly pauseAfter: number;
  private max: number;
  private current: number;
  private successes = 0;
  private lastDecreaseAt = Number.NEGATIVE_INFINITY;
  private decreases = 0;
  private refusalsAtFloor = 0;
  private holdUntil = Number.NEGATIVE_INFINITY;

  constructor(options: AimdOptions) {
    this.max = Math.max(1, Math.floor(options.max));
    this.min = Math.max(1, options.min ?? 1);
    this.decreaseFactor = options.decreaseFactor ?? 0.5;
    this.increaseAfter = options.increaseAfter ?? 20;
    this.cooldownMs = options.cooldownMs ?? 1000;
    this.pauseAfter = options.pauseAfter ?? RATE_LIMIT_PAUSE_AFTER;
    this.current = this.max;
  }

  get limit(): number {
    return this.current;
  }

  /** The configured maximum (the person's setting). */
  get ceiling(): number {
    return this.max;
  }

  /**
   * Which limit a request is sent under: read it when the request leaves, and give it back
   * with its 429, so that refusals of requests sent before the last decrease count as the
   * burst that caused it, not as a new signal.
   */
  get window(): number {
    return this.decreases;
  }

  /** The pool is at its floor and the last `pauseAfter` answers (or more) were all 429s. */
  get rateLimitPersists(): boolean {
    return this.refusalsAtFloor >= this.pauseAfter;
  }

  /** No request may start before this time (the floor's wait after a refusal). */
  get heldUntil(): number {
    return this.holdUntil;
  }

  /**
   * The person changed the concurrency setting. A pool at its maximum follows it at once, up
   * or down; one that 429s lowered stays lower (below the new maximum) and grows back as usual.
   */
  setMax(max: number): void {
    const atMax = this.current >= this.max;
    this.max = Math.max(1, Math.floor(max));
    this.current = atMax ? this.max : Math.min(this.current, this.max);
    if (this.current < this.min) this.current = Math.min(this.min, this.max);
  }

  /**
   * A rate-limit answer. Returns the new limit. `sentInWindow`: `window` when the request
   * left; a refusal sent under the current limit halves it again (one halving per window, as
   * fast as the gateway refuses). Without it, refusals within the cool-down count as one.
   */
  onRateLimited(now: number = Date.now(), sentInWindow?: number): number {
    this.successes = 0;
    if (this.current <= this.min) {
      this.refusalsAtFloor++;
      return this.current;
    }
    const sameBurst =
      sentInWindow === undefined
        ? now - this.lastDecreaseAt < this.cooldownMs
        : sentInWindow < this.decreases;
    if (sameBurst) return this.current;
    this.lastDecreaseAt = now;
    this.decreases++;
    this.current = Math.max(this.min, Math.floor(this.current * this.decreaseFactor));
    return this.current;
  }

  /**
   * At the floor, the whole pool waits as long as the refused request was told to (its
   * Retry-After or backoff): sending the next job at once would only be refused too.
   */
  holdAfterRefusal(until: number): void {
    if (this.current <= this.min) this.holdUntil = Math.max(this.holdUntil, until);
  }

  /** A request that was not rate limited. Returns the new limit. */
  onSuccess(): number {
    this.refusalsAtFloor = 0;
    if (this.current >= this.max) return this.current;
    if (++this.successes >= this.increaseAfter) {
      this.successes = 0;
      this.current += 1;
    }
    return this.current;
  }
}
