import { MAX_DETAILS } from '../../../shared/api/paging.ts';

/**
 * Many one-id queries (a row each) answered by few calls: the ids asked for in the same turn
 * (the rows a render mounts) go out together, MAX_DETAILS at a time, as InvokeAI's queue asks
 * for the visible range. An id the service no longer has resolves to null.
 */
export class IdLoader<T extends { id: number }> {
  private readonly fetch: (ids: number[]) => Promise<T[]>;
  private waiting = new Map<
    number,
    Array<{ done(item: T | null): void; fail(e: unknown): void }>
  >();
  private scheduled = false;

  constructor(fetch: (ids: number[]) => Promise<T[]>) {
    this.fetch = fetch;
  }

  load(id: number): Promise<T | null> {
    return new Promise((done, fail) => {
      const waiters = this.waiting.get(id);
      if (waiters) waiters.push({ done, fail });
      else this.waiting.set(id, [{ done, fail }]);
      if (this.scheduled) return;
      this.scheduled = true;
      queueMicrotask(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.waiting;
    this.waiting = new Map();
    this.scheduled = false;
    const ids = [...batch.keys()];
    for (let i = 0; i < ids.length; i += MAX_DETAILS) {
      const chunk = ids.slice(i, i + MAX_DETAILS);
      this.fetch(chunk).then(
        (items) => {
          const byId = new Map(items.map((item) => [item.id, item]));
          for (const id of chunk) for (const w of batch.get(id)!) w.done(byId.get(id) ?? null);
        },
        (error: unknown) => {
          for (const id of chunk) for (const w of batch.get(id)!) w.fail(error);
        },
      );
    }
  }
}
