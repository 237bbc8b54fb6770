import type { ApiEvent, EventBatch } from '../../../shared/api/events.ts';
import type { EventSource as ApiEventSource } from '../../../shared/api/types.ts';
import { applyEvents } from './apply-events.ts';
import type { AppStore } from './index.ts';

export interface EventPumpOptions {
  /** Shortest time between two store updates (default 100 ms: at most ten renders a second). */
  intervalMs?: number;
  now?: () => number;
  setTimer?: (run: () => void, ms: number) => () => void;
}

export interface EventPump {
  /** Applies what is buffered, then stops listening. */
  stop(): void;
  /** Listens again from the last cursor (after the host restarted, say). */
  resubscribe(): void;
}

/**
 * Feeds the service's events into the store in batches: whatever arrives within an interval
 * is applied with one `set` (the first at once, the rest when the interval ends), so a queue
 * running 1,000 jobs a second re-renders the UI at most about ten times a second.
 */
export function startEventPump(
  store: AppStore,
  events: ApiEventSource,
  options: EventPumpOptions = {},
): EventPump {
  const intervalMs = options.intervalMs ?? 100;
  const now = options.now ?? Date.now;
  const setTimer = options.setTimer ?? defaultTimer;
  let buffer: ApiEvent[] = [];
  let received = false;
  let cursor = store.getState().cursor;
  let lastFlush = -Infinity;
  let cancelTimer: (() => void) | null = null;
  let stopped = false;

  const flush = () => {
    cancelTimer = null;
    if (!received) return;
    const batch = buffer;
    buffer = [];
    received = false;
    lastFlush = now();
    store.setState((s) => ({
      ...applyEvents(s, batch),
      cursor,
      connection: 'live',
      eventSeq: s.eventSeq + 1,
    }));
  };

  const onBatch = (delivery: EventBatch) => {
    if (stopped) return;
    for (const event of delivery.events) buffer.push(event); // no spread: a catch-up can be huge
    if (delivery.cursor) cursor = delivery.cursor;
    received = true;
    if (cancelTimer) return;
    const wait = lastFlush + intervalMs - now();
    if (wait <= 0) flush();
    else cancelTimer = setTimer(flush, wait);
  };

  let unsubscribe = events.subscribe(cursor, onBatch);
  return {
    stop() {
      if (stopped) return;
      cancelTimer?.();
      flush();
      stopped = true;
      unsubscribe();
      store.setState({ connection: 'closed' });
    },
    resubscribe() {
      if (stopped) return;
      unsubscribe();
      cancelTimer?.();
      flush();
      store.setState({ connection: 'connecting' });
      unsubscribe = events.subscribe(cursor, onBatch);
    },
  };
}

function defaultTimer(run: () => void, ms: number): () => void {
  const id = setTimeout(run, ms);
  return () => clearTimeout(id);
}
