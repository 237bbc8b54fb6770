import { ApiErrorSchema, type Result } from '../../../shared/api/errors.ts';
import { ApiEventSchema, type ApiEvent } from '../../../shared/api/events.ts';
import { buildRawApi, type SendCall } from '../../../shared/api/raw-client.ts';
import type {
  EventSource as ApiEventSource,
  EventListener as ApiEventListener,
  RawApi,
} from '../../../shared/api/types.ts';

/** The part of the browser's EventSource the transport uses (tests pass a fake). */
export interface EventStream {
  readonly readyState: number;
  onmessage: ((event: { data: unknown; lastEventId: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  close(): void;
}
export type EventStreamFactory = new (url: string) => EventStream;

export interface HttpTransportDeps {
  fetch?: typeof fetch;
  EventSource?: EventStreamFactory;
  /** Waits before reopening a stream the browser gave up on (an HTTP error, not a drop). */
  setTimer?: (run: () => void, ms: number) => () => void;
}

/** EventSource.CLOSED: the browser will not reconnect by itself. */
const CLOSED = 2;
const REOPEN_MS = [1_000, 2_000, 5_000, 10_000, 30_000];
const NOT_ANSWERING = "Atelier's host is not answering: is `atelier ui` still running?";

/**
 * The contract over the web host: one POST per call, events over server-sent events. Every
 * failure (no answer, a body that is not a Result) comes back as an `internal` Result.
 */
export function createHttpTransport(origin: string, deps: HttpTransportDeps = {}): RawApi {
  const fetchFn = deps.fetch ?? globalThis.fetch.bind(globalThis);
  const send: SendCall = (area, method, input) =>
    call(fetchFn, `${origin}/api/${area}/${method}`, input);
  const Stream = deps.EventSource ?? (globalThis.EventSource as unknown as EventStreamFactory);
  const setTimer = deps.setTimer ?? defaultTimer;
  // the same type the preload's API satisfies: the screens cannot tell the two apart
  return buildRawApi(send, {
    subscribe: (cursor, listener) => subscribe(Stream, setTimer, origin, cursor, listener),
  } satisfies ApiEventSource) satisfies RawApi;
}

async function call(fetchFn: typeof fetch, url: string, input: unknown): Promise<Result<unknown>> {
  let response: Response;
  try {
    response = await fetchFn(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
  } catch (error) {
    return internal(`${NOT_ANSWERING} (${describe(error)})`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    return internal(`${NOT_ANSWERING} The answer was cut off (${describe(error)}).`);
  }
  const result = asResult(text);
  if (result) return result;
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

function subscribe(
  Stream: EventStreamFactory,
  setTimer: NonNullable<HttpTransportDeps['setTimer']>,
  origin: string,
  cursor: string | null,
  listener: ApiEventListener,
): () => void {
  let last = cursor;
  let stream: EventStream | null = null;
  let cancelReopen: (() => void) | null = null;
  let failures = 0;
  let stopped = false;

  const open = () => {
    cancelReopen = null;
    const query = last ? `?cursor=${encodeURIComponent(last)}` : '';
    const current = new Stream(`${origin}/api/events${query}`);
    stream = current;
    current.onmessage = (message) => {
      failures = 0;
      const batch = parseDelivery(message.data, message.lastEventId || last || '');
      if (!batch) return;
      last = batch.cursor;
      listener(batch);
    };
    // A dropped connection is retried by the browser (with Last-Event-ID); an HTTP error
    // closes the stream for good, so reopen it from the last cursor, more slowly each time.
    current.onerror = () => {
      if (stopped || current.readyState !== CLOSED) return;
      current.close();
      const wait = REOPEN_MS[Math.min(failures, REOPEN_MS.length - 1)]!;
      failures++;
      cancelReopen = setTimer(open, wait);
    };
  };
  open();
  return () => {
    stopped = true;
    cancelReopen?.();
    stream?.close();
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
