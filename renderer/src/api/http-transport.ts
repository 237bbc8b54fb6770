import { ApiErrorSchema, type Result } from '../../../shared/api/errors.ts';
import { ApiEventSchema, type ApiEvent } from '../../../shared/api/events.ts';
import { buildRawApi, type SendCall } from '../../../shared/api/raw-client.ts';
import type {
  EventSource as ApiEventSource,
  EventListener as ApiEventListener,
  RawApi,
  StreamLostListener,
} from '../../../shared/api/types.ts';
import { readEventStream } from './sse-reader.ts';

export interface HttpTransportDeps {
  fetch?: typeof fetch;
  /** The session's `Authorization` header for every call and the event stream, if any. */
  authorization?: () => string | null;
  /** The host refused the session (401): called with its sentence. */
  onUnauthorized?: (message: string) => void;
  /** Waits before reopening the event stream after it ended or failed. */
  setTimer?: (run: () => void, ms: number) => () => void;
  /**
   * An event stream silent this long is taken for dead and reopened (the host writes a
   * keep-alive every 15 s; a computer that slept wakes up with a connection nobody answers).
   */
  silentMs?: number;
}

const REOPEN_MS = [1_000, 2_000, 5_000, 10_000, 30_000];
const SILENT_MS = 45_000;
/** Said where a person reads it (the disconnected banner, a toast): no markup, the cause first. */
const notAnswering = (cause: string) =>
  `Atelier's host is not answering (${cause}): is “atelier ui” still running?`;

interface Transport {
  fetchFn: typeof fetch;
  origin: string;
  headers: (extra: Record<string, string>) => Record<string, string>;
  onUnauthorized: (message: string) => void;
  setTimer: NonNullable<HttpTransportDeps['setTimer']>;
  silentMs: number;
}

/**
 * The contract over the web host: one POST per call, events over server-sent events read with
 * `fetch` (EventSource cannot send the session's header). Every failure (no answer, a body
 * that is not a Result) comes back as an `internal` Result.
 */
export function createHttpTransport(origin: string, deps: HttpTransportDeps = {}): RawApi {
  const authorization = deps.authorization ?? (() => null);
  const t: Transport = {
    fetchFn: deps.fetch ?? globalThis.fetch.bind(globalThis),
    origin,
    headers: (extra) => {
      const header = authorization();
      return header === null ? extra : { ...extra, authorization: header };
    },
    onUnauthorized: deps.onUnauthorized ?? (() => {}),
    setTimer: deps.setTimer ?? defaultTimer,
    silentMs: deps.silentMs ?? SILENT_MS,
  };
  const send: SendCall = (area, method, input) => call(t, `${origin}/api/${area}/${method}`, input);
  // the same type the preload's API satisfies: the screens cannot tell the two apart
  return buildRawApi(send, {
    subscribe: (cursor, listener, onLost) => subscribe(t, cursor, listener, onLost),
  } satisfies ApiEventSource) satisfies RawApi;
}

async function call(t: Transport, url: string, input: unknown): Promise<Result<unknown>> {
  let response: Response;
  try {
    response = await t.fetchFn(url, {
      method: 'POST',
      credentials: 'omit', // cookies open nothing here: none is sent
      headers: t.headers({ 'content-type': 'application/json' }),
      body: JSON.stringify(input),
    });
  } catch (error) {
    return internal(notAnswering(describe(error)));
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    return internal(notAnswering(`the answer was cut off: ${describe(error)}`));
  }
  const result = asResult(text);
  if (result) {
    if (response.status === 401 && !result.ok) t.onUnauthorized(result.error.message);
    return result;
  }
  return internal(
    `Atelier's host answered HTTP ${response.status} with something that is not an API ` +
      `result (${preview(text)}): reload the page, and restart \`atelier ui\` if it persists.`,
  );
}

/** The body as a Result, or null when it is not one. */
function asResult(text: string): Result<unknown> | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null || !('ok' in body)) return null;
  if (body.ok === true && 'value' in body) return { ok: true, value: body.value };
  if (body.ok === false && 'error' in body) {
    const error = ApiErrorSchema.safeParse(body.error);
    if (error.success) return { ok: false, error: error.data };
  }
  return null;
}

/**
 * Holds the event stream open: each delivery's id is the cursor it resumes from, so a stream
 * that ends, fails or goes silent is opened again from the last one (more slowly each time it
 * fails without a delivery), and `onLost` is told why and when. A refused session stops it.
 */
function subscribe(
  t: Transport,
  cursor: string | null,
  listener: ApiEventListener,
  onLost: StreamLostListener = () => {},
): () => void {
  let last = cursor;
  let failures = 0;
  let stopped = false;
  let cancelReopen: (() => void) | null = null;
  let controller: AbortController | null = null;

  /** One stream, read until it ends: 'stop', or why it has to be opened again. */
  const read = async (current: AbortController): Promise<string | 'stop'> => {
    let silent = false;
    let cancelSilence = () => {};
    // every chunk (a keep-alive too) says the host is there; none for silentMs, it is gone
    const alive = () => {
      cancelSilence();
      cancelSilence = t.setTimer(() => {
        silent = true;
        current.abort();
      }, t.silentMs);
    };
    alive();
    try {
      const query = last ? `?cursor=${encodeURIComponent(last)}` : '';
      const response = await t.fetchFn(`${t.origin}/api/events${query}`, {
        headers: t.headers({ accept: 'text/event-stream' }),
        credentials: 'omit',
        cache: 'no-store',
        signal: current.signal,
      });
      if (response.status === 401) {
        const result = asResult(await response.text().catch(() => ''));
        t.onUnauthorized(
          result && !result.ok ? result.error.message : notAnswering('refused: 401'),
        );
        return 'stop';
      }
      if (!response.ok || !response.body) {
        return `Atelier's host answered the event stream with HTTP ${response.status}.`;
      }
      for await (const message of readEventStream(response.body, last ?? '', alive)) {
        failures = 0;
        const batch = parseDelivery(message.data, message.lastEventId || last || '');
        if (!batch) continue;
        last = batch.cursor;
        listener(batch);
      }
      return "Atelier's host closed the event stream.";
    } catch (error) {
      return silent
        ? `Nothing came from Atelier's host for ${Math.round(t.silentMs / 1000)} s ` +
            '(the computer slept, or the network dropped).'
        : notAnswering(describe(error));
    } finally {
      cancelSilence();
    }
  };

  const open = () => {
    cancelReopen = null;
    const current = new AbortController();
    controller = current;
    void read(current).then((outcome) => {
      if (stopped || outcome === 'stop') return;
      const wait = REOPEN_MS[Math.min(failures, REOPEN_MS.length - 1)]!;
      failures++;
      cancelReopen = t.setTimer(open, wait);
      onLost({ reason: outcome, retryInMs: wait });
    });
  };
  open();
  return () => {
    stopped = true;
    cancelReopen?.();
    controller?.abort();
  };
}

/**
 * One SSE message: `data` is the JSON array of events (or a whole `{cursor, events}`), the
 * message id the cursor. Malformed events are dropped, a malformed message ignored.
 * A message without an id keeps the cursor given (the previous one).
 */
export function parseDelivery(
  data: unknown,
  lastEventId: string,
): { cursor: string; events: ApiEvent[] } | null {
  if (typeof data !== 'string') return null;
  let body: unknown;
  try {
    body = JSON.parse(data);
  } catch {
    return null;
  }
  let raw: unknown = body;
  let cursor = lastEventId;
  if (!Array.isArray(body) && typeof body === 'object' && body !== null && 'events' in body) {
    raw = body.events;
    if ('cursor' in body && typeof body.cursor === 'string' && body.cursor) cursor = body.cursor;
  }
  if (!Array.isArray(raw)) return null;
  const events: ApiEvent[] = [];
  for (const item of raw) {
    const event = ApiEventSchema.safeParse(item);
    if (event.success) events.push(event.data);
  }
  return { cursor, events };
}

function internal(message: string): Result<never> {
  return { ok: false, error: { code: 'internal', message } };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return 'an empty body';
  return `"${flat.length > 80 ? `${flat.slice(0, 80)}…` : flat}"`;
}

function defaultTimer(run: () => void, ms: number): () => void {
  const id = setTimeout(run, ms);
  return () => clearTimeout(id);
}
