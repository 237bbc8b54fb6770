/**
 * Whether the service's events reach the window: `connecting` until the first delivery,
 * `live` while they come, `lost` when the stream broke (the host stopped, the network
 * dropped, the computer slept) and is being reopened, `closed` once the window stopped
 * listening. Actions wait while it is not live.
 */
export type Connection = 'connecting' | 'live' | 'lost' | 'closed';

/** Why the stream was lost, and when it is tried again (a time of `Date.now()`). */
export interface ConnectionProblem {
  reason: string;
  retryAt: number;
}

export class ConnectionState {
  private value: Connection = 'connecting';
  private why: ConnectionProblem | null = null;
  private readonly listeners = new Set<() => void>();

  get = (): Connection => this.value;

  /** While lost: why, and when it is tried again; else null. */
  problem = (): ConnectionProblem | null => this.why;

  set(value: Connection, problem: ConnectionProblem | null = null): void {
    if (value === this.value && problem === this.why) return;
    this.value = value;
    this.why = value === 'lost' ? problem : null;
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}
