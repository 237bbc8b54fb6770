import type { ApiEvent, EventBatch } from '../../shared/api/events.ts';

/** One SSE message waiting to be written: a delivery, or a keep-alive comment. */
export type QueuedMessage =
  { kind: 'events'; id: string; events: ApiEvent[]; json: string } | { kind: 'comment' };

export const RESYNC_REASON =
  'This page fell too far behind the event stream: showing the current state.';

/**
 * The messages one SSE client has not taken yet, bounded in bytes: a client that cannot keep
 * up (a stalled tab, a slow link) costs at most `maxBytes`, then is told to resync and its
 * backlog is dropped. The resync carries the newest cursor, so a reconnect resumes from there.
 */
export class EventQueue {
  private readonly maxBytes: number;
  private items: QueuedMessage[] = [];
  private bytes = 0;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** Queues a delivery; 'overflow' when it (and the backlog) were replaced by a resync. */
  push(batch: EventBatch): 'queued' | 'overflow' {
    const json = JSON.stringify(batch.events);
    // one message bigger than the bound still goes when nothing waits before it
    if (this.items.length > 0 && this.bytes + json.length > this.maxBytes) {
      const events: ApiEvent[] = [{ type: 'resync', payload: { reason: RESYNC_REASON } }];
      const resync = JSON.stringify(events);
      this.items = [{ kind: 'events', id: batch.cursor, events, json: resync }];
      this.bytes = resync.length;
      return 'overflow';
    }
    this.items.push({ kind: 'events', id: batch.cursor, events: batch.events, json });
    this.bytes += json.length;
    return 'queued';
  }

  /** A keep-alive, only when nothing else waits (a busy stream needs none). */
  pushComment(): void {
    if (this.items.length === 0) this.items.push({ kind: 'comment' });
  }

  shift(): QueuedMessage | undefined {
    const item = this.items.shift();
    if (item?.kind === 'events') this.bytes -= item.json.length;
    return item;
  }

  get queuedBytes(): number {
    return this.bytes;
  }
}
