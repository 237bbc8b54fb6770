/**
 * Downloads that would leave together with requests wait a moment, so the requests reach the
 * gateway first. A request's time is its slot's (the next job waits for its answer); a
 * download's is not on that path. Where the gateway's links point at the gateway itself and it
 * shares the machine (a local gateway, the simulator), a download sent beside a request was
 * read, rendered and answered before it: each request then reached the gateway 0.8 ms later at
 * the median, 1.5 on average (performance.md). The hold is short: the gallery fills as before.
 */
export class DownloadHold {
  private held: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;
  /** When the last request was sent (performance.now()), or -Infinity. */
  private lastRequestAt = -Infinity;
  private readonly holdMs: number;
  private readonly now: () => number;

  constructor(holdMs: number, now: () => number = () => performance.now()) {
    this.holdMs = holdMs;
    this.now = now;
  }

  /** A request was just sent: downloads starting within the hold wait for it. */
  requestSent(): void {
    this.lastRequestAt = this.now();
  }

  /** Starts `begin` now, or after the hold when a request was sent within it. */
  start(begin: () => void): void {
    if (this.now() - this.lastRequestAt >= this.holdMs) {
      begin();
      return;
    }
    this.held.push(begin);
    // one timer for all: the first held download waits the hold, those after it less
    this.timer ??= setTimeout(() => this.release(), this.holdMs);
  }

  /** Every held download starts now (a stop, or the hold's end). */
  release(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const held = this.held;
    this.held = [];
    for (const begin of held) begin();
  }
}
