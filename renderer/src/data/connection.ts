export type Connection = 'connecting' | 'live' | 'closed';

/** Whether the service's events reach the window: actions wait while they do not. */
export class ConnectionState {
  private value: Connection = 'connecting';
  private readonly listeners = new Set<() => void>();

  get = (): Connection => this.value;

  set(value: Connection): void {
    if (value === this.value) return;
    this.value = value;
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}
