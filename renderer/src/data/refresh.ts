import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Marks queries out of date and fetches again those on screen, one fetch at a time each: an
 * event arriving while a query's fetch is out (whose answer may predate it) asks once more
 * when that fetch ends, rather than cancelling it (a queue sending ten events a second would
 * cancel every fetch of a long list before it ends) or being lost (TanStack clears the
 * invalidation when the fetch it joined succeeds).
 */
export class Refresher {
  private readonly client: QueryClient;
  private readonly again = new Set<string>();
  private readonly unsubscribe: () => void;

  constructor(client: QueryClient) {
    this.client = client;
    this.unsubscribe = client.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated') return;
      const { type } = event.action;
      if ((type === 'success' || type === 'error') && this.again.delete(event.query.queryHash)) {
        this.refreshOne(event.query);
      }
    });
  }

  /** Every query under `prefix` that `matches` (all of them when left out). */
  refresh(prefix: QueryKey, matches?: (query: Query) => boolean): void {
    const found = this.client.getQueryCache().findAll({ queryKey: prefix });
    for (const query of found) if (!matches || matches(query)) this.refreshOne(query);
  }

  /** One query, by its exact key (nothing when it is not cached). */
  refreshKey(key: QueryKey): void {
    const query = this.client.getQueryCache().find({ queryKey: key, exact: true });
    if (query) this.refreshOne(query);
  }

  close(): void {
    this.unsubscribe();
  }

  private refreshOne(query: Query): void {
    if (query.state.fetchStatus === 'fetching') {
      this.again.add(query.queryHash);
      return;
    }
    void this.client
      .invalidateQueries({ queryKey: query.queryKey, exact: true }, { cancelRefetch: false })
      .catch(() => undefined); // the query shows its own error
  }
}
