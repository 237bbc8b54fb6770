import { describe, expect, it, vi } from 'vitest';
import {
  createHttpTransport,
  type EventStream,
  type EventStreamFactory,
} from '../../../renderer/src/api/http-transport.ts';
import type { EventBatch } from '../../../shared/api/events.ts';

const ORIGIN = 'http://127.0.0.1:4321';

function answering(status: number, body: string) {
  return vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => {
    return new Response(body, { status, headers: { 'content-type': 'application/json' } });
  });
}

/** Records every stream opened; tests play the browser's side. */
function fakeEventSource() {
  const opened: FakeStream[] = [];
  class FakeStream implements EventStream {
    readyState = 0;
    onmessage: EventStream['onmessage'] = null;
    onerror: EventStream['onerror'] = null;
    closed = false;
    readonly url: string;
    constructor(url: string) {
      this.url = url;
      opened.push(this);
    }
    close() {
      this.closed = true;
      this.readyState = 2;
    }
    message(data: unknown, lastEventId: string) {
      this.readyState = 1;
      this.onmessage?.({ data, lastEventId });
    }
  }
  return { opened, EventSource: FakeStream as EventStreamFactory & typeof FakeStream };
}

describe('calls over HTTP', () => {
  it('posts JSON to /api/<area>/<method> and passes the Result through', async () => {
    const fetch = answering(200, JSON.stringify({ ok: true, value: { changed: 3 } }));
    const raw = createHttpTransport(ORIGIN, { fetch });
    await expect(raw.jobs.cancel({ ids: [1, 2, 3] })).resolves.toEqual({
      ok: true,
      value: { changed: 3 },
    });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(`${ORIGIN}/api/jobs/cancel`);
    expect(init).toMatchObject({
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
    });
    expect(JSON.parse(init!.body as string)).toEqual({ ids: [1, 2, 3] });
  });

  it('sends {} for a method called without input', async () => {
    const fetch = answering(200, JSON.stringify({ ok: true, value: null }));
    await createHttpTransport(ORIGIN, { fetch }).queue.resume();
    expect(fetch.mock.calls[0]![1]!.body).toBe('{}');
  });

  it('passes an error Result through whatever the HTTP status (401, 421…)', async () => {
    const error = { code: 'unauthorized', message: 'The token is missing.' };
    const fetch = answering(401, JSON.stringify({ ok: false, error }));
    await expect(createHttpTransport(ORIGIN, { fetch }).queue.state()).resolves.toEqual({
      ok: false,
      error,
    });
  });

  it('turns a network failure into an internal Result that says what to check', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const result = await createHttpTransport(ORIGIN, { fetch }).app.info();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('internal');
    expect(result.error.message).toMatch(/not answering: is `atelier ui` still running\?/);
    expect(result.error.message).toContain('Failed to fetch');
  });

  it('turns a body that is not a Result into an internal Result', async () => {
    for (const [status, body] of [
      [502, '<html><body>Bad gateway</body></html>'],
      [200, '{"items": []}'],
      [200, '{"ok": false, "error": {"code": "no-such-code", "message": "x"}}'],
      [200, ''],
    ] as const) {
      const result = await createHttpTransport(ORIGIN, {
        fetch: answering(status, body),
      }).app.info();
      expect(result, body).toMatchObject({ ok: false, error: { code: 'internal' } });
      if (!result.ok) expect(result.error.message).toContain(`HTTP ${status}`);
    }
  });
});

describe('events over server-sent events', () => {
  const progressEvent = { type: 'queue.resumed', payload: {} };

  it('opens /api/events, with the cursor when one is given', () => {
    const { opened, EventSource } = fakeEventSource();
    const raw = createHttpTransport(ORIGIN, { EventSource });
    raw.events.subscribe(null, () => {});
    raw.events.subscribe('a/b c', () => {});
    expect(opened.map((s) => s.url)).toEqual([
      `${ORIGIN}/api/events`,
      `${ORIGIN}/api/events?cursor=a%2Fb%20c`,
    ]);
  });

  it('delivers each message as a batch: data the events, the message id the cursor', () => {
    const { opened, EventSource } = fakeEventSource();
    const got: EventBatch[] = [];
    createHttpTransport(ORIGIN, { EventSource }).events.subscribe(null, (b) => got.push(b));
    const paused = { type: 'queue.paused', payload: { reason: 'r', code: null, kind: 'manual' } };
    opened[0]!.message(JSON.stringify([paused, progressEvent]), 'c1');
    expect(got).toEqual([{ cursor: 'c1', events: [paused, progressEvent] }]);
  });

  it('ignores malformed messages and drops malformed events without throwing', () => {
    const { opened, EventSource } = fakeEventSource();
    const got: EventBatch[] = [];
    createHttpTransport(ORIGIN, { EventSource }).events.subscribe(null, (b) => got.push(b));
    const stream = opened[0]!;
    expect(() => {
      stream.message('not json', 'c1');
      stream.message('{"no": "events"}', 'c2');
      stream.message(42, 'c3');
      stream.message(JSON.stringify([{ type: 'nope' }, progressEvent, null]), 'c4');
    }).not.toThrow();
    expect(got).toEqual([{ cursor: 'c4', events: [progressEvent] }]);
  });

  it('closes the stream when unsubscribed', () => {
    const { opened, EventSource } = fakeEventSource();
    const stop = createHttpTransport(ORIGIN, { EventSource }).events.subscribe(null, () => {});
    stop();
    expect(opened[0]!.closed).toBe(true);
  });

  it('leaves a dropped connection to the browser, and reopens one it gave up on', () => {
    const { opened, EventSource } = fakeEventSource();
    const timers: Array<{ run: () => void; ms: number }> = [];
    const setTimer = (run: () => void, ms: number) => {
      timers.push({ run, ms });
      return () => {};
    };
    const raw = createHttpTransport(ORIGIN, { EventSource, setTimer });
    raw.events.subscribe(null, () => {});
    const first = opened[0]!;
    first.message(JSON.stringify([progressEvent]), 'seen-1');
    first.readyState = 0; // the browser reconnects by itself, with Last-Event-ID
    first.onerror?.({});
    expect(timers).toHaveLength(0);
    first.readyState = 2; // an HTTP error: the browser stopped
    first.onerror?.({});
    expect(timers).toHaveLength(1);
    timers[0]!.run();
    expect(opened.at(-1)!.url).toBe(`${ORIGIN}/api/events?cursor=seen-1`);
  });
});
