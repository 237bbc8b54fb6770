import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../../shared/api/events.ts';
import { RESYNC_REASON } from '../../../main/web/event-queue.ts';
import { pollUntil } from '../../support/poll-until.ts';
import { openEvents, startTestHost } from './harness.ts';

const resumed: ApiEvent = { type: 'queue.resumed', payload: {} };
const settings: ApiEvent = { type: 'settings.changed', payload: {} };
const changed = (from: number, count: number): ApiEvent => ({
  type: 'jobs.changed',
  payload: {
    changes: Array.from({ length: count }, (_, i) => [from + i, 'running'] as [number, 'running']),
    batches: [1],
  },
});

describe('web host: events', () => {
  it('sends each delivery as one SSE message, its cursor as id, in order', async () => {
    const t = await startTestHost();
    const stream = await openEvents(t);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    const sent = [[resumed], [changed(1, 3), settings], [settings]].map((e) =>
      t.app.events.emit(e),
    );
    for (const batch of sent) {
      expect(await stream.nextEvents()).toEqual({ id: batch.cursor, events: batch.events });
    }
  });

  it('resumes after Last-Event-ID (which wins over ?cursor) with no gap and no duplicate', async () => {
    const t = await startTestHost();
    const first = await openEvents(t);
    t.app.events.emit([resumed]);
    t.app.events.emit([changed(1, 1)]);
    expect((await first.nextEvents()).id).toBe('c1');
    expect((await first.nextEvents()).id).toBe('c2');
    first.close();
    await pollUntil(() => t.app.events.subscribers === 0, 'the closed stream unsubscribed');

    t.app.events.emit([changed(2, 1)]);
    t.app.events.emit([settings]);
    const again = await openEvents(t, { lastEventId: 'c2', query: '?cursor=c1' });
    t.app.events.emit([changed(3, 1)]);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await again.nextEvents()).id);
    expect(ids).toEqual(['c3', 'c4', 'c5']);

    // without the header, the query's cursor
    const fromQuery = await openEvents(t, { query: '?cursor=c4' });
    expect(await fromQuery.nextEvents()).toEqual({ id: 'c5', events: [changed(3, 1)] });
  });

  it('writes a keep-alive comment while nothing happens', async () => {
    const t = await startTestHost({ keepAliveMs: 20 });
    const stream = await openEvents(t);
    expect(await stream.next()).toEqual({ comment: 'keep-alive' });
  });

  it('tells a client that stopped reading to resync, and drops its backlog', async () => {
    const limit = 64 * 1024;
    const t = await startTestHost({ maxQueuedEventBytes: limit });
    const stream = await openEvents(t); // and never read, until the backlog overflows
    const overflowed = () => t.log.some((line) => line.includes('told to resync'));
    let n = 0;
    while (!overflowed()) {
      if (++n > 5_000) throw new Error('The backlog never overflowed.');
      t.app.events.emit([changed(n * 1000, 1000)]);
      await new Promise((resolve) => setImmediate(resolve)); // the server writes what it can
    }
    const after = t.app.events.emit([settings]);
    const ids: string[] = [];
    for (;;) {
      const { id, events } = await stream.nextEvents();
      if (events[0]!.type === 'resync') {
        expect(events).toEqual([{ type: 'resync', payload: { reason: RESYNC_REASON } }]);
        // the resync's id is the newest dropped delivery: a reconnect resumes after it
        expect(id).toBe(`c${n}`);
        break;
      }
      ids.push(id!);
    }
    // before it, deliveries in order with no gap; some were dropped
    expect(ids).toEqual(ids.map((_, i) => `c${i + 1}`));
    expect(ids.length).toBeLessThan(n - 1);
    expect(await stream.nextEvents()).toEqual({ id: after.cursor, events: [settings] });
  });

  it('unsubscribes when the client goes, and ends open streams when the host closes', async () => {
    const t = await startTestHost();
    const a = await openEvents(t);
    const b = await openEvents(t);
    expect(t.app.events.subscribers).toBe(2);
    a.close();
    await pollUntil(() => t.app.events.subscribers === 1, 'one stream unsubscribed');
    await t.host.close();
    expect(t.app.events.subscribers).toBe(0);
    await expect(b.next()).rejects.toThrow();
  });
});
