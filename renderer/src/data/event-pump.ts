import type { ApiEvent, EventBatch } from '../../../shared/api/events.ts';
import type { StreamLostListener } from '../../../shared/api/types.ts';
import { applyEvents } from './apply-event.ts';
import type { Data } from './data.ts';

export interface EventPump {
  stop(): void;
  /** Listens again from the last cursor (after the host restarted, say). */
  resubscribe(): void;
}

/** What a window that was cut off missed: changes that leave no log to replay (a rename, a
 * favourite, a hold made elsewhere), so everything it shows is read again. */
const RECONNECTED: ApiEvent = {
  type: 'resync',
  payload: { reason: 'The window was cut off from the service: showing the current state.' },
};

/**
 * Feeds the service's events into the cache as they come: the service already sends at most
 * about ten deliveries a second however fast the queue runs (EventHub), so each delivery is
 * applied at once, in one render, and then told to the listeners of the bus (toasts…). A lost
 * stream makes the window `lost` (actions wait; the status bar says why) until deliveries come
 * again, and the first of them refreshes everything shown.
 */
export function startEventPump(
  data: Data,
  now: () => number = Date.now,
  /** The stream is registered (its first delivery came), or lost: reads may go. */
  onLive: () => void = () => {},
): EventPump {
  let cursor: string | null = null;
  let stopped = false;
  const onBatch = (delivery: EventBatch) => {
    onLive();
    if (stopped) return;
    if (delivery.cursor) cursor = delivery.cursor;
    const back = data.connection.get() === 'lost';
    data.connection.set('live');
    const resyncs = delivery.events.some((event) => event.type === 'resync');
    applyEvents(data, back && !resyncs ? [RECONNECTED, ...delivery.events] : delivery.events);
    for (const event of delivery.events) data.bus.emit(event);
  };
  const onLost: StreamLostListener = ({ reason, retryInMs }) => {
    onLive(); // (the reads then fail as the stream did, and the status bar says why)
    if (!stopped) data.connection.set('lost', { reason, retryAt: now() + retryInMs });
  };
  let unsubscribe = data.api.events.subscribe(cursor, onBatch, onLost);
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
      unsubscribe = data.api.events.subscribe(cursor, onBatch, onLost);
    },
  };
}
