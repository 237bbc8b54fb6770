import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';

export interface RefresherClock {
  now(): number;
  /** Runs `run` once after `ms`; returns what cancels it. */
  setTimer(run: () => void, ms: number): () => void;
}

const realClock: RefresherClock = {
  now: () => Date.now(),
  setTimer: (run, ms) => {
    const id = setTimeout(run, ms);
    return () => clearTimeout(id);
  },
};

/**
 * Marks queries out of date and fetches again those on screen, one fetch at a time each: an
 * event arriving while a query's fetch is out (whose answer may predate it) asks once more
 * when that fetch ends, rather than cancelling it (a queue sending ten events a second would
 * cancel every fetch of a long list before it ends) or being lost (TanStack clears the
 * invalidation when the fetch it joined succeeds).
 *
 * What one delivery asks for is invalidated in one pass over the cache at its end (`during`),
 * and a key is found by its hash: TanStack's exact-key filters hash every cached key once per
 * call, which with a few hundred rows cached made a delivery of images cost 50–100 ms.
 */
export class Refresher {
  private readonly client: QueryClient;
  private readonly clock: RefresherClock;
  private readonly again = new Set<string>();
  /** Queries asked for during the delivery being applied; null outside one. */
  private pending: Set<Query> | null = null;
  /** Throttled queries: when each was last fetched, and a fetch owed after the gap. */
  private readonly lastThrottled = new Map<string, number>();
  private readonly owed = new Map<string, () => void>();
  private readonly unsubscribe: () => void;

  constructor(client: QueryClient, clock: RefresherClock = realClock) {
    this.client = client;
    this.clock = clock;
    this.unsubscribe = client.getQueryCache().subscribe((event) => {
      if (event.type === 'removed') {
        this.lastThrottled.delete(event.query.queryHash);
        this.owed.get(event.query.queryHash)?.();
        this.owed.delete(event.query.queryHash);
        return;
      }
      if (event.type !== 'updated') return;
      const { type } = event.action;
      if ((type === 'success' || type === 'error') && this.again.delete(event.query.queryHash)) {
        this.refreshOne(event.query);
      }
    });
  }

  /** Runs `apply`; what it asks to refresh is invalidated together when it returns. */
  during(apply: () => void): void {
    if (this.pending) return apply();
    const pending = new Set<Query>();
    this.pending = pending;
    try {
      apply();
    } finally {
      this.pending = null;
      this.invalidate(pending);
    }
  }

  /** Every query under `prefix` that `matches` (all of them when left out). */
  refresh(prefix: QueryKey, matches?: (query: Query) => boolean): void {
    const found = this.client.getQueryCache().findAll({ queryKey: prefix });
    for (const query of found) if (!matches || matches(query)) this.refreshOne(query);
  }

  /** One query, by its exact key (nothing when it is not cached). */
  refreshKey(key: QueryKey): void {
    const query = this.find(key);
    if (query) this.refreshOne(query);
  }

  /**
   * One query, at most once every `gapMs`: a change asked for sooner is fetched when the gap
   * ends (so the last one is never lost), however many events asked meanwhile. For what moves
   * with every delivery of a running batch (its requests sent) and costs a request to read.
   */
  refreshAtMost(key: QueryKey, gapMs: number): void {
    const query = this.find(key);
    if (!query || this.owed.has(query.queryHash)) return;
    const wait = (this.lastThrottled.get(query.queryHash) ?? -Infinity) + gapMs - this.clock.now();
    if (wait <= 0) {
      this.lastThrottled.set(query.queryHash, this.clock.now());
      return this.refreshOne(query);
    }
    const cancel = this.clock.setTimer(() => {
      this.owed.delete(query.queryHash);
      this.refreshKey(query.queryKey);
    }, wait);
    this.owed.set(query.queryHash, cancel);
  }

  close(): void {
    this.unsubscribe();
    for (const cancel of this.owed.values()) cancel();
    this.owed.clear();
  }

  private find(key: QueryKey): Query | undefined {
    // the hash the cache itself keys by (the client's own hash function, if it has one)
    const { queryHash } = this.client.defaultQueryOptions({ queryKey: key });
    return this.client.getQueryCache().get(queryHash);
  }

  private refreshOne(query: Query): void {
    // any refresh settles what a throttled one owed, and starts its gap again
    const hash = query.queryHash;
    this.owed.get(hash)?.();
    this.owed.delete(hash);
    if (this.lastThrottled.has(hash)) this.lastThrottled.set(hash, this.clock.now());
    if (query.state.fetchStatus === 'fetching') {
      this.again.add(hash);
      return;
    }
    if (this.pending) this.pending.add(query);
    else this.invalidate(new Set([query]));
  }

  private invalidate(queries: ReadonlySet<Query>): void {
    if (queries.size === 0) return;
    void this.client
      .invalidateQueries({ predicate: (query) => queries.has(query) }, { cancelRefetch: false })
      .catch(() => undefined); // the query shows its own error
  }
}
