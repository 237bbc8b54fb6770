import type { ApiEvent, ApiEventOf, ApiEventType } from '../../../shared/api/events.ts';

type Listener<T extends ApiEventType> = (event: ApiEventOf<T>) => void;

/**
 * Events for what is not a cache: a toast when a batch finishes, the gallery's count of new
 * images, a selection losing deleted ids. The pump hands each event here after the cache.
 */
export class EventBus {
  private readonly listeners = new Map<ApiEventType, Set<(event: ApiEvent) => void>>();

  on<T extends ApiEventType>(type: T, listener: Listener<T>): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    const each = listener as (event: ApiEvent) => void;
    set.add(each);
    return () => set.delete(each);
  }

  emit(event: ApiEvent): void {
    const set = this.listeners.get(event.type);
    if (set) for (const listener of set) listener(event);
  }
}
