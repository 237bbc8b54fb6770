import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyEvents } from '../../../renderer/src/store/apply-events.ts';
import { startEventPump } from '../../../renderer/src/store/event-pump.ts';
import { createAppStore, type AppStore } from '../../../renderer/src/store/index.ts';
import type { ApiEvent, EventBatch } from '../../../shared/api/events.ts';
import type { EventListener } from '../../../shared/api/types.ts';
import type { JobState } from '../../../shared/jobs/states.ts';
import { batch, dataOf, fakeApi, job, progress, zeroDownloads, zeroJobs } from './fake-api.ts';

/** An event source that records what each subscription asked for. */
function source() {
  const subscriptions: Array<{ cursor: string | null; listener: EventListener; open: boolean }> =
    [];
  return {
    subscriptions,
    subscribe(cursor: string | null, listener: EventListener) {
      const sub = { cursor, listener, open: true };
      subscriptions.push(sub);
      return () => {
        sub.open = false;
      };
    },
    emit(batch: EventBatch) {
      for (const sub of subscriptions) if (sub.open) sub.listener(batch);
    },
  };
}

function seededStore(): AppStore {
  const store = createAppStore(fakeApi().api);
  store.setState({
    batches: new Map([[1, batch(1, { queued: 100 })]]),
    batchIds: [1],
    jobsById: new Map(Array.from({ length: 100 }, (_, i) => [i + 1, job(i + 1)] as const)),
  });
  return store;
}

const STATES: JobState[] = ['queued', 'running', 'retrying', 'succeeded', 'failed'];

/** Event i: order matters, as the last state of a job and the last pause must win. */
function event(i: number): ApiEvent {
  switch (i % 4) {
    case 0:
      return {
        type: 'jobs.changed',
        payload: { changes: [[(i % 100) + 1, STATES[i % STATES.length]!]], batches: [1] },
      };
    case 1:
      return {
        type: 'progress',
        payload: {
          ...progress({ succeeded: i }),
          paused: null,
          batches: [{ id: 1, jobs: { ...zeroJobs(), succeeded: i }, downloads: zeroDownloads() }],
        },
      };
    case 2:
      return {
        type: 'queue.paused',
        payload: { reason: `pause ${i}`, code: null, kind: 'manual' },
      };
    default:
      return i % 8 === 3
        ? { type: 'queue.resumed', payload: {} }
        : {
            type: 'limits.changed',
            payload: { concurrency: 8, current: i % 8, requestsPerMinute: null },
          };
  }
}

describe('the event pump', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('applies 10,000 events in a second with at most 11 set calls, as if all at once', () => {
    const store = seededStore();
    const expected = { ...store.getState(), ...applyEvents(store.getState(), all(10_000)) };
    const events = source();
    startEventPump(store, events);
    const set = vi.spyOn(store, 'setState');
    let i = 0;
    for (let ms = 0; ms < 1_000; ms++) {
      const delivery = Array.from({ length: 10 }, () => event(i++));
      events.emit({ cursor: `c${i}`, events: delivery });
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(1_000);
    expect(i).toBe(10_000);
    expect(set.mock.calls.length).toBeGreaterThanOrEqual(10);
    expect(set.mock.calls.length).toBeLessThanOrEqual(11);
    const { eventSeq, connection, cursor, ...final } = dataOf(store.getState());
    const { eventSeq: _s, connection: _c, cursor: _k, ...once } = dataOf(expected);
    expect(final).toEqual(once);
    expect(final.paused).not.toBeNull(); // the test's events do leave something to compare
    expect({ eventSeq, connection, cursor }).toEqual({
      eventSeq: set.mock.calls.length,
      connection: 'live',
      cursor: 'c10000',
    });
  });

  it('applies the first delivery at once and the next ones when the interval ends', () => {
    const store = seededStore();
    const events = source();
    startEventPump(store, events, { intervalMs: 100 });
    events.emit({ cursor: 'a', events: [event(2)] });
    expect(store.getState().paused?.reason).toBe('pause 2');
    vi.advanceTimersByTime(10);
    events.emit({ cursor: 'b', events: [event(3)] });
    expect(store.getState().paused).not.toBeNull();
    expect(store.getState().cursor).toBe('a');
    vi.advanceTimersByTime(89);
    expect(store.getState().paused).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(store.getState().paused).toBeNull();
    expect(store.getState().cursor).toBe('b');
    vi.advanceTimersByTime(500); // quiet: the next delivery is applied at once
    events.emit({ cursor: 'c', events: [event(6)] });
    expect(store.getState().paused?.reason).toBe('pause 6');
  });

  it('subscribes from the store’s cursor and resubscribes from the last one received', () => {
    const store = seededStore();
    store.setState({ cursor: 'start' });
    const events = source();
    const pump = startEventPump(store, events);
    events.emit({ cursor: 'k1', events: [] });
    events.emit({ cursor: 'k2', events: [event(2)] });
    pump.resubscribe();
    expect(events.subscriptions.map((s) => [s.cursor, s.open])).toEqual([
      ['start', false],
      ['k2', true],
    ]);
    // what was buffered was applied before listening again
    expect(store.getState().paused?.reason).toBe('pause 2');
  });

  it('on stop, applies what is buffered, stops listening and says so', () => {
    const store = seededStore();
    const events = source();
    const pump = startEventPump(store, events);
    events.emit({ cursor: 'k1', events: [] });
    events.emit({ cursor: 'k2', events: [event(2)] });
    pump.stop();
    expect(store.getState()).toMatchObject({ cursor: 'k2', connection: 'closed' });
    expect(store.getState().paused?.reason).toBe('pause 2');
    expect(events.subscriptions[0]!.open).toBe(false);
    const set = vi.spyOn(store, 'setState');
    events.subscriptions[0]!.listener({ cursor: 'late', events: [event(3)] });
    vi.advanceTimersByTime(1_000);
    expect(set).not.toHaveBeenCalled();
  });
});

function all(n: number): ApiEvent[] {
  return Array.from({ length: n }, (_, i) => event(i));
}
