import { describe, expect, it, vi } from 'vitest';
import { createHttpTransport } from '../../../renderer/src/api/http-transport.ts';
import type { EventBatch } from '../../../shared/api/events.ts';

const ORIGIN = 'http://127.0.0.1:4321';

function answering(status: number, body: string) {
  return vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => {
    return new Response(body, { status, headers: { 'content-type': 'application/json' } });
  });
}

/** Every event stream opened with fetch; the test plays the host's side of each. */
function fakeStreams(status = 200) {
  const opened: Array<{
    url: string;
    init: RequestInit;
    push(text: string): void;
    end(): void;
  }> = [];
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    let stream!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (stream = c) });
    init?.signal?.addEventListener('abort', () => stream.error(new Error('aborted')));
    opened.push({
      url: String(url),
      init: init!,
      push: (text) => stream.enqueue(new TextEncoder().encode(text)),
      end: () => stream.close(),
    });
    if (status !== 200) {
      const error = { code: 'unauthorized', message: 'No session.' };
      return new Response(JSON.stringify({ ok: false, error }), { status });
    }
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  });
  return { opened, fetch };
}

/** Timers the test runs by hand: those pending (run or cancelled ones leave the list). */
function manualTimers() {
  const timers: Array<{ run: () => void; ms: number }> = [];
  const setTimer = (run: () => void, ms: number) => {
    const timer = {
      ms,
      run: () => {
        cancel();
        run();
      },
    };
    const cancel = () => {
      const at = timers.indexOf(timer);
      if (at >= 0) timers.splice(at, 1);
    };
    timers.push(timer);
    return cancel;
  };
  /** The pending timers but the stream's silence watch. */
  const reopens = () => timers.filter((timer) => timer.ms !== SILENT_MS);
  return { timers, setTimer, reopens };
}
const SILENT_MS = 45_000;

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
    const refused: string[] = [];
    const raw = createHttpTransport(ORIGIN, { fetch, onUnauthorized: (m) => refused.push(m) });
    await expect(raw.queue.state()).resolves.toEqual({ ok: false, error });
    // a 401 means the session is gone: the page is told, to show how to open a new one
    expect(refused).toEqual(['The token is missing.']);
  });

  it('sends the session’s bearer token with every call, and no cookie', async () => {
    const fetch = answering(200, JSON.stringify({ ok: true, value: null }));
    await createHttpTransport(ORIGIN, { fetch, authorization: () => 'Bearer abc' }).queue.resume();
    const init = fetch.mock.calls[0]![1]!;
    expect(init.headers).toEqual({
      'content-type': 'application/json',
      authorization: 'Bearer abc',
    });
    expect(init.credentials).toBe('omit');
  });

  it('turns a network failure into an internal Result that says what to check', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const result = await createHttpTransport(ORIGIN, { fetch }).app.info();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('internal');
    expect(result.error.message).toMatch(
      /^Atelier's host is not answering \(.*Failed to fetch.*\): is “atelier ui” still running\?$/,
    );
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

describe('events over server-sent events, read with fetch', () => {
  const progressEvent = { type: 'queue.resumed', payload: {} };
  const paused = { type: 'queue.paused', payload: { reason: 'r', code: null, kind: 'manual' } };

  it('opens /api/events with the session’s header, and the cursor when one is given', async () => {
    const { opened, fetch } = fakeStreams();
    const raw = createHttpTransport(ORIGIN, { fetch, authorization: () => 'Bearer t0k3n' });
    raw.events.subscribe(null, () => {});
    raw.events.subscribe('a/b c', () => {});
    await vi.waitFor(() => expect(opened).toHaveLength(2));
    expect(opened.map((s) => s.url)).toEqual([
      `${ORIGIN}/api/events`,
      `${ORIGIN}/api/events?cursor=a%2Fb%20c`,
    ]);
    expect(opened[0]!.init.headers).toEqual({
      accept: 'text/event-stream',
      authorization: 'Bearer t0k3n',
    });
    // never in the URL: a token there would sit in logs and history
    expect(opened.some((s) => s.url.includes('t0k3n'))).toBe(false);
  });

  it('delivers each message as a batch: data the events, the message id the cursor', async () => {
    const { opened, fetch } = fakeStreams();
    const got: EventBatch[] = [];
    createHttpTransport(ORIGIN, { fetch }).events.subscribe(null, (b) => got.push(b));
    await vi.waitFor(() => expect(opened).toHaveLength(1));
    const data = JSON.stringify([paused, progressEvent]);
    // cut anywhere, CRLF or LF, comments in between: as a proxy or the network may deliver it
    opened[0]!.push(': keep-alive\n\nid: c1\r\nda');
    opened[0]!.push(`ta: ${data}\r\n\r`);
    opened[0]!.push('\n');
    opened[0]!.push(`data: ${JSON.stringify([progressEvent])}\n\n`);
    await vi.waitFor(() => expect(got).toHaveLength(2));
    expect(got).toEqual([
      { cursor: 'c1', events: [paused, progressEvent] },
      { cursor: 'c1', events: [progressEvent] }, // no id: the last one holds
    ]);
  });

  it('ignores malformed messages and drops malformed events without throwing', async () => {
    const { opened, fetch } = fakeStreams();
    const got: EventBatch[] = [];
    createHttpTransport(ORIGIN, { fetch }).events.subscribe(null, (b) => got.push(b));
    await vi.waitFor(() => expect(opened).toHaveLength(1));
    const stream = opened[0]!;
    stream.push('id: c1\ndata: not json\n\n');
    stream.push('id: c2\ndata: {"no": "events"}\n\n');
    stream.push(`id: c4\ndata: ${JSON.stringify([{ type: 'nope' }, progressEvent, null])}\n\n`);
    await vi.waitFor(() => expect(got).toEqual([{ cursor: 'c4', events: [progressEvent] }]));
  });

  it('aborts the request when unsubscribed, and opens nothing again', async () => {
    const { opened, fetch } = fakeStreams();
    const { timers, setTimer } = manualTimers();
    const stop = createHttpTransport(ORIGIN, { fetch, setTimer }).events.subscribe(null, () => {});
    await vi.waitFor(() => expect(opened).toHaveLength(1));
    stop();
    expect(opened[0]!.init.signal!.aborted).toBe(true);
    await new Promise((r) => setTimeout(r, 10));
    expect(timers).toEqual([]);
  });

  it('reopens a stream that ended from the last cursor, more slowly while it keeps failing', async () => {
    const { opened, fetch } = fakeStreams();
    const { timers, setTimer, reopens } = manualTimers();
    const got: EventBatch[] = [];
    createHttpTransport(ORIGIN, { fetch, setTimer }).events.subscribe(null, (b) => got.push(b));
    await vi.waitFor(() => expect(opened).toHaveLength(1));
    opened[0]!.push(`id: seen-1\ndata: ${JSON.stringify([progressEvent])}\n\n`);
    await vi.waitFor(() => expect(got).toHaveLength(1));
    opened[0]!.end(); // the host restarted, a proxy closed it
    await vi.waitFor(() => expect(timers.map((timer) => timer.ms)).toEqual([1_000]));
    timers[0]!.run();
    await vi.waitFor(() => expect(opened).toHaveLength(2));
    expect(opened[1]!.url).toBe(`${ORIGIN}/api/events?cursor=seen-1`);
    opened[1]!.end();
    await vi.waitFor(() => expect(reopens()).toHaveLength(1));
    expect(reopens()[0]!.ms).toBe(2_000);
  });

  it('tells the page its stream was lost, why, and when it tries again', async () => {
    const { opened, fetch } = fakeStreams();
    const { setTimer, reopens } = manualTimers();
    const lost: Array<{ reason: string; retryInMs: number }> = [];
    createHttpTransport(ORIGIN, { fetch, setTimer }).events.subscribe(
      null,
      () => {},
      (l) => lost.push(l),
    );
    await vi.waitFor(() => expect(opened).toHaveLength(1));
    opened[0]!.push(`id: c1\ndata: ${JSON.stringify([progressEvent])}\n\n`);
    opened[0]!.end(); // the host stopped
    await vi.waitFor(() => expect(lost).toHaveLength(1));
    expect(lost[0]).toEqual({
      reason: "Atelier's host closed the event stream.",
      retryInMs: 1_000,
    });
    // the host is gone: opening again fails, and says so each time
    fetch.mockImplementationOnce(async () => {
      throw new TypeError('Failed to fetch');
    });
    reopens()[0]!.run();
    await vi.waitFor(() => expect(lost).toHaveLength(2));
    expect(lost[1]!.reason).toMatch(/not answering.*Failed to fetch/);
    expect(lost[1]!.retryInMs).toBe(2_000);
  });

  it('takes a stream silent for longer than the keep-alives allow for dead, and reopens it', async () => {
    const { opened, fetch } = fakeStreams();
    const { timers, setTimer } = manualTimers();
    const lost: string[] = [];
    createHttpTransport(ORIGIN, { fetch, setTimer }).events.subscribe(
      null,
      () => {},
      (l) => lost.push(l.reason),
    );
    await vi.waitFor(() => expect(opened).toHaveLength(1));
    // a keep-alive: the watch starts over (one pending, never two)
    opened[0]!.push(': keep-alive\n\n');
    await vi.waitFor(() => expect(timers.map((t) => t.ms)).toEqual([SILENT_MS]));
    // the computer slept: nothing more comes, and the watch fires
    timers[0]!.run();
    expect(opened[0]!.init.signal!.aborted).toBe(true);
    await vi.waitFor(() => expect(lost).toHaveLength(1));
    expect(lost[0]).toMatch(/Nothing came from Atelier's host for 45 s/);
    expect(timers.map((t) => t.ms)).toEqual([1_000]);
    timers[0]!.run();
    await vi.waitFor(() => expect(opened).toHaveLength(2));
  });

  it('stops, and says so, when the host refuses the session', async () => {
    const { opened, fetch } = fakeStreams(401);
    const { timers, setTimer } = manualTimers();
    const refused: string[] = [];
    createHttpTransport(ORIGIN, {
      fetch,
      setTimer,
      onUnauthorized: (m) => refused.push(m),
    }).events.subscribe(null, () => {});
    await vi.waitFor(() => expect(refused).toEqual(['No session.']));
    expect(opened).toHaveLength(1);
    expect(timers).toEqual([]);
  });
});
