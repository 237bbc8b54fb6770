import type { EventBatch } from '../../../shared/api/events.ts';
import { applyEvents } from './apply-event.ts';
import type { Data } from './data.ts';

export interface EventPump {
  stop(): void;
  /** Listens again from the last cursor (after the host restarted, say). */
  resubscribe(): void;
}

/**
 * Feeds the service's events into the cache as they come: the service already sends at most
 * about ten deliveries a second however fast the queue runs (EventHub), so each delivery is
 * applied at once, in one render, and then told to the listeners of the bus (toasts…).
 */
export function startEventPump(data: Data): EventPump {
  let cursor: string | null = null;
  let stopped = false;
  const onBatch = (delivery: EventBatch) => {
    if (stopped) return;
    if (delivery.cursor) cursor = delivery.cursor;
    data.connection.set('live');
    applyEvents(data, delivery.events);
    for (const event of delivery.events) data.bus.emit(event);
  };
  let unsubscribe = data.api.events.subscribe(cursor, onBatch);
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      unsubscribe();
      data.connection.set('closed');
    },
    resubscribe() {
      if (stopped) return;
      unsubscribe();
      data.connection.set('connecting');
      unsubscribe = data.api.events.subscribe(cursor, onBatch);
    },
  };
}
