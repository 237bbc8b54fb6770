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
}

export class AdaptiveConcurrency {
  private readonly min: number;
  private readonly decreaseFactor: number;
  private readonly increaseAfter: number;
  private readonly cooldownMs: number;
  private max: number;
  private current: number;
  private successes = 0;
  private lastDecreaseAt = Number.NEGATIVE_INFINITY;

  constructor(options: AimdOptions) {
    this.max = Math.max(1, Math.floor(options.max));
    this.min = Math.max(1, options.min ?? 1);
    this.decreaseFactor = options.decreaseFactor ?? 0.5;
    this.increaseAfter = options.increaseAfter ?? 20;
    this.cooldownMs = options.cooldownMs ?? 1000;
    this.current = this.max;
  }

  get limit(): number {
    return this.current;
  }

  /** The person changed the concurrency setting. */
  setMax(max: number): void {
    this.max = Math.max(1, Math.floor(max));
    this.current = Math.min(this.current, this.max);
    if (this.current < this.min) this.current = Math.min(this.min, this.max);
  }

  /** A rate-limit answer. Returns the new limit. */
  onRateLimited(now: number = Date.now()): number {
    this.successes = 0;
    if (now - this.lastDecreaseAt < this.cooldownMs) return this.current;
    this.lastDecreaseAt = now;
    this.current = Math.max(this.min, Math.floor(this.current * this.decreaseFactor));
    return this.current;
  }

  /** A request that was not rate limited. Returns the new limit. */
  onSuccess(): number {
    if (this.current >= this.max) return this.current;
    if (++this.successes >= this.increaseAfter) {
      this.successes = 0;
      this.current += 1;
    }
    return this.current;
  }
}
