import type { Readable } from 'node:stream';
import type { GatewayTimeouts } from '../../../../shared/gateway/profile.ts';
import { apiRoot } from '../../../../shared/gateway/profile.ts';
import type { GatewayFailure, RequestIds } from '../../../../shared/gateway/outcome.ts';
import { redact } from '../../../../shared/gateway/redact.ts';
import {
  holdsSealedKey,
  sealKeyInUrl,
  unsealKeyInUrl,
} from '../../../../shared/gateway/sealed-url.ts';
import { BEFORE_SEND_CODES, classifyFailure, type FailureInput } from '../classify/classify.ts';
import { header } from '../classify/headers.ts';
import { requestIdsOf } from '../classify/request-ids.ts';
import type { GatewayContext } from '../context.ts';
import {
  BodyIdle,
  BodyTooLarge,
  collectBody,
  contentLength,
  readAll,
  webStream,
} from './answer-body.ts';
import { GatewayError, networkCode } from './errors.ts';
import { startPhaseTimers, type PhaseTimers } from './phase-timers.ts';
import { RedirectRefused, sendFollowingRedirects } from './redirects.ts';
import { encodeBody, type EncodedBody } from './request-body.ts';
import type { SentAnswer } from './transport.ts';

export interface CallOptions {
  /** Cancels the call (the person pressed cancel, the queue was paused…). */
  signal?: AbortSignal;
  /** Overrides the profile's time-outs for this call. */
  timeouts?: Partial<GatewayTimeouts>;
}

export interface ExchangeSpec {
  method: 'GET' | 'POST';
  /** A path under the API root (`/images/generations`), or `url` for a file link. */
  path?: string;
  url?: string;
  json?: unknown;
  form?: FormData;
  accept?: string;
}

/** Status and headers of an answer; header names are lower case, read them with `header()`. */
export interface AnswerHead {
  status: number;
  headers: SentAnswer['headers'];
}

/** An answer whose headers have arrived; its body is still to be read (or streamed). */
export interface OpenAnswer {
  response: AnswerHead;
  requestIds: RequestIds;
  /**
   * Reads the whole body as text; a body cut off, timed out or larger than the context's
   * `maxAnswerBytes` becomes a failure.
   */
  text(): Promise<{ ok: true; text: string } | GatewayFailure>;
  /** The body as bytes; errors while reading surface as GatewayError. Ends the timers. */
  stream(): ReadableStream<Uint8Array>;
  /** The whole body at once (a small one), as `stream()` would give it: see WholeBody. */
  whole(limits: WholeBodyLimits): Promise<WholeBody>;
  /** Request ids from the headers and a parsed body, cleaned of the key. */
  idsOf(body: unknown): RequestIds;
  /** Classifies with this exchange's context (ids, key redaction, Retry-After cap). */
  fail(input: FailureInput): GatewayFailure;
  /** Text from the answer kept or shown (a revised prompt…), without the key in any form. */
  cleanText(text: string): string;
  /** A link from the answer, to store: the key in it sealed (see sealed-url.ts). */
  sealUrl(url: string): string;
  /** Ends the exchange: timers stop, the body is released if unread, one log line. */
  close(note?: string): void;
}

/** How much a whole body may be, and how long it may send nothing. */
export interface WholeBodyLimits {
  maxBytes: number;
  idleMs: number;
}

/**
 * A body read whole, or why it stopped after `received` bytes: a GatewayError as the stream
 * would have failed with (cut short, our time-out, the connection), BodyTooLarge past
 * `maxBytes` or BodyIdle after `idleMs` without data (the connection released, no log line,
 * as when a stream's reader gives up).
 */
export type WholeBody = { bytes: Buffer } | { error: Error; received: number };

/** What fetch used to send by default; some gateways' firewalls look at them. */
const DEFAULT_HEADERS = { accept: '*/*', 'user-agent': 'node' };

/** One request under way: where it goes, since when, and the key once read (for redaction). */
interface Exchange {
  context: GatewayContext;
  spec: ExchangeSpec;
  options: CallOptions;
  timeouts: GatewayTimeouts;
  started: number;
  url: URL;
  gatewayOrigin: string;
  /** Whether the key (and the profile's extra headers) may go to this address. */
  auth: boolean;
  /** For the log: method and address without the query (links may carry tokens). */
  /** The key once read: for redaction, and to unseal a stored link that carried it. */
  secret: string | null;
  /** The key sent as the Authorization header: only to the gateway's own origin. */
  authKey: string | null;
}

/**
 * Sends one request and waits for the response headers. Everything that can go wrong is
 * turned into a classified failure here, with the phase it happened in: before anything was
 * sent, after sending but before an answer, or while the answer's body was arriving.
 */
export async function openExchange(
  context: GatewayContext,
  spec: ExchangeSpec,
  options: CallOptions = {},
): Promise<OpenAnswer | GatewayFailure> {
  const exchange = await beginExchange(context, spec, options);
  const refused = await takeKey(exchange);
  if (refused) return refused;
  const encoded = await encodeBody(spec);
  // (a closed client's pool may still hold its idle sockets for a moment: see context.ts)
  if (options.signal?.aborted || context.closed) {
    return classifyIn(exchange, { kind: 'canceled', sent: false });
  }
  const timers = startPhaseTimers(exchange.timeouts, options.signal);
  const answer = await send(exchange, encoded, timers);
  if (!('body' in answer)) return answer;
  timers.answered();
  return openAnswer(exchange, answer, timers);
}

async function beginExchange(
  context: GatewayContext,
  spec: ExchangeSpec,
  options: CallOptions,
): Promise<Exchange> {
  // A stored link that carried the key gets it back here, in memory, for this request only.
  const sealed = spec.url !== undefined && holdsSealedKey(spec.url);
  let secret: string | null = null;
  if (sealed) {
    const key = await readKey(context);
    if ('key' in key) secret = key.key;
  }
  const unsealed = sealed && secret !== null ? unsealKeyInUrl(spec.url!, secret) : undefined;
  const { url, gatewayOrigin, auth } = targetOf(context, spec, unsealed);
  return {
    context,
    spec,
    options,
    timeouts: { ...context.profile.timeouts, ...options.timeouts },
    started: context.now(),
    url,
    gatewayOrigin,
    auth,
    secret,
    authKey: null,
  };
}

/** Classifies with the exchange's context; `requestIds` stand in when the input names none. */
function classifyIn(
  exchange: Exchange,
  input: FailureInput,
  requestIds?: RequestIds,
): GatewayFailure {
  const { profile } = exchange.context;
  const failure = classifyFailure(input, {
    requestIdHeader: profile.requestIdHeader,
    maxRetryAfterMs: profile.maxRetryAfterMs,
    nowMs: exchange.context.now(),
    secrets: [exchange.secret],
    target: exchange.spec.url ? 'file' : 'api',
  });
  if (requestIds && !failure.requestIds.requestId && !failure.requestIds.upstreamRequestId) {
    return { ...failure, requestIds };
  }
  return failure;
}

/** A log line about the exchange (`where` it went, then `what`), written only when logging. */
function logIn(exchange: Exchange, what: () => string): void {
  const { log } = exchange.context;
  if (!log) return;
  const { spec, url } = exchange;
  log(redact(`${spec.method} ${url.origin}${url.pathname} → ${what()}`, exchange.secret));
}

/** Reads the key when this address gets it; a missing one is a failure, nothing sent. */
async function takeKey(exchange: Exchange): Promise<GatewayFailure | null> {
  if (!exchange.auth) return null;
  const key = await readKey(exchange.context);
  if ('problem' in key) {
    const failure = classifyIn(exchange, { kind: 'no-key', detail: key.problem });
    logIn(exchange, () => `not sent: ${failure.message}`);
    return failure;
  }
  exchange.secret = exchange.authKey = key.key;
  return null;
}

async function readKey(context: GatewayContext): Promise<{ key: string } | { problem: string }> {
  let raw: string | null | undefined;
  try {
    raw = typeof context.apiKey === 'function' ? await context.apiKey() : context.apiKey;
  } catch (error) {
    return {
      problem: `it could not be read: ${redact(String((error as Error)?.message ?? error))}`,
    };
  }
  const key = raw?.trim();
  if (!key) return { problem: 'none is set' };
  if (/[\s\0]/.test(key))
    return { problem: 'the stored key contains spaces or line breaks; paste it again' };
  return { key };
}

/** Parsed once per base URL: URL parsing is a visible part of a request's CPU. */
const gatewayOrigins = new WeakMap<
  GatewayContext['profile'],
  { baseUrl: string; origin: string }
>();

function gatewayOriginOf(profile: GatewayContext['profile']): string {
  const known = gatewayOrigins.get(profile);
  // Checked against the base URL so that a profile edited in place never uses a stale origin.
  if (known?.baseUrl === profile.baseUrl) return known.origin;
  const origin = new URL(profile.baseUrl).origin;
  gatewayOrigins.set(profile, { baseUrl: profile.baseUrl, origin });
  return origin;
}

function targetOf(context: GatewayContext, spec: ExchangeSpec, unsealed: string | undefined) {
  const gatewayOrigin = gatewayOriginOf(context.profile);
  if (spec.url) {
    const url = new URL(unsealed ?? spec.url);
    // The key goes only to the gateway itself, never to a storage host behind a file link.
    return { url, gatewayOrigin, auth: url.origin === gatewayOrigin };
  }
  return { url: new URL(apiRoot(context.profile) + (spec.path ?? '')), gatewayOrigin, auth: true };
}

/**
 * The headers for any host, and those for the gateway's own origin (null: no key, so none).
 * Later entries win, as they did in fetch's Headers: its defaults, the profile's extra
 * headers, what this request needs, the key. Names are lower case so none is sent twice.
 */
function headersFor(exchange: Exchange, encoded: EncodedBody | null) {
  const own: Record<string, string> = {};
  if (exchange.spec.accept) own.accept = exchange.spec.accept;
  if (encoded) own['content-type'] = encoded.contentType;
  const headers = { ...DEFAULT_HEADERS, ...own };
  // Extra headers often carry a second credential: like the key, only the gateway gets them.
  const gatewayHeaders =
    exchange.authKey === null
      ? null
      : {
          ...DEFAULT_HEADERS,
          ...lowerCaseNames(exchange.context.profile.extraHeaders),
          ...own,
          authorization: `Bearer ${exchange.authKey}`,
        };
  return { headers, gatewayHeaders };
}

function lowerCaseNames(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}

/** Sends (following redirects) until headers arrive; a failure to get there is classified. */
async function send(
  exchange: Exchange,
  encoded: EncodedBody | null,
  timers: PhaseTimers,
): Promise<SentAnswer | GatewayFailure> {
  const { context, spec, url } = exchange;
  try {
    return await sendFollowingRedirects(
      context.request,
      {
        url,
        method: spec.method,
        ...headersFor(exchange, encoded),
        body: encoded?.body,
        signal: timers.signal,
        dispatcher: context.pool,
      },
      exchange.gatewayOrigin,
    );
  } catch (error) {
    timers.stop();
    const failure = classifyIn(exchange, ...sendFailure(exchange, error, timers));
    const took = context.now() - exchange.started;
    logIn(exchange, () => `${failure.kind} after ${took} ms: ${failure.message}`);
    return failure;
  }
}

/** What a failed send means: canceled, our own time-out, a refused redirect, or the connection. */
function sendFailure(
  exchange: Exchange,
  error: unknown,
  timers: PhaseTimers,
): [FailureInput, RequestIds?] {
  if (exchange.options.signal?.aborted) return [{ kind: 'canceled', sent: true }];
  if (error instanceof RedirectRefused) {
    return [{ kind: 'redirect-refused', scheme: error.scheme }, idsIn(exchange, error.headers)];
  }
  const code = networkCode(error);
  const timeout = timers.timedOut();
  if (timeout) {
    // Our timer fired before any answer. The request may well have been sent; only a failed
    // connect proves otherwise, and that would have ended the request with its own error code.
    return [{ kind: 'timeout', phase: 'response', afterMs: timeout.afterMs }];
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return [{ kind: 'timeout', phase: 'connect' }];
  if (code !== null && BEFORE_SEND_CODES.has(code))
    return [{ kind: 'network', phase: 'connect', code }];
  return [{ kind: 'network', phase: 'sent', code }];
}

function idsIn(exchange: Exchange, headers: SentAnswer['headers'], body?: unknown): RequestIds {
  const { profile } = exchange.context;
  return requestIdsOf(headers, body, profile.requestIdHeader, [exchange.secret]);
}

/** The answer as the endpoints read it: its head now, its body as text or as a stream. */
function openAnswer(exchange: Exchange, answer: SentAnswer, timers: PhaseTimers): OpenAnswer {
  const { body } = answer;
  // undici also reports a body's failure as an 'error' event; the readers below see it anyway,
  // and an unread body destroyed by a time-out must not crash the process.
  body.on('error', () => {});
  const response: AnswerHead = { status: answer.statusCode, headers: answer.headers };
  const requestIds = idsIn(exchange, response.headers);
  const fail = (input: FailureInput) => classifyIn(exchange, input, requestIds);
  const ending = answerEnding(exchange, response, body, timers, requestIds);
  // A body shorter than its content-length ended cleanly only if the transport did not check.
  const expected = [204, 304].includes(response.status) ? null : contentLength(response.headers);
  return {
    response,
    requestIds,
    idsOf: (parsed) => idsIn(exchange, response.headers, parsed),
    fail,
    cleanText: (text) => redact(text, exchange.secret),
    sealUrl: (link) => sealKeyInUrl(link, exchange.secret),
    close: ending.close,
    text: () => readText(exchange, { response, ids: requestIds, body, expected, fail, ending }),
    stream() {
      return webStream(body, {
        ended(received) {
          if (expected !== null && received < expected) {
            const failure = fail({ kind: 'truncated', expected, received });
            ending.close(failure.message);
            return new GatewayError(failure);
          }
          ending.close();
          return null;
        },
        failed(error) {
          const failure = ending.bodyFailure(error);
          ending.close(failure.message);
          return new GatewayError(failure);
        },
        // The reader gave up (or already failed): no log line, as with fetch.
        cancel: ending.quietly,
      });
    },
    async whole({ maxBytes, idleMs }) {
      const read = await collectBody(body, { maxBytes, expectedBytes: expected, idleMs });
      if ('error' in read) {
        if (read.error instanceof BodyTooLarge || read.error instanceof BodyIdle) {
          ending.quietly();
          return { error: read.error, received: read.received };
        }
        const failure = ending.bodyFailure(read.error);
        ending.close(failure.message);
        return { error: new GatewayError(failure), received: read.received };
      }
      const received = read.bytes.byteLength;
      if (expected !== null && received < expected) {
        const failure = fail({ kind: 'truncated', expected, received });
        ending.close(failure.message);
        return { error: new GatewayError(failure), received };
      }
      ending.close();
      return read;
    },
  };
}

/** How an answer ends: closed once (with its log line), quietly, or by a body failure. */
function answerEnding(
  exchange: Exchange,
  response: AnswerHead,
  body: Readable,
  timers: PhaseTimers,
  requestIds: RequestIds,
) {
  let closed = false;
  return {
    close(note?: string) {
      if (closed) return;
      closed = true;
      timers.stop();
      release(body);
      const took = exchange.context.now() - exchange.started;
      logIn(exchange, () => {
        const id = requestIds.requestId ? ` [${requestIds.requestId}]` : '';
        return `${response.status} in ${took} ms${id}${note ? `: ${note}` : ''}`;
      });
    },
    quietly() {
      closed = true;
      timers.stop();
      release(body);
    },
    /** A body that failed while arriving: canceled, our time-out, or the connection. */
    bodyFailure(error: unknown): GatewayFailure {
      if (exchange.options.signal?.aborted) {
        return classifyIn(exchange, { kind: 'canceled', sent: true }, requestIds);
      }
      const timeout = timers.timedOut();
      if (timeout) {
        const input = { kind: 'timeout', phase: 'body', afterMs: timeout.afterMs } as const;
        return classifyIn(exchange, input, requestIds);
      }
      const input = { kind: 'network', phase: 'body', code: networkCode(error) } as const;
      return classifyIn(exchange, input, requestIds);
    },
  };
}

/**
 * The whole body as text, at most `maxAnswerBytes` of it: an answer announced or found larger
 * is a failure, with nothing more read (held whole, a huge answer costs several times its size
 * in memory, and past V8's string limit it cannot be read at all).
 */
async function readText(
  exchange: Exchange,
  answer: {
    response: AnswerHead;
    ids: RequestIds;
    body: Readable;
    expected: number | null;
    fail: (input: FailureInput) => GatewayFailure;
    ending: ReturnType<typeof answerEnding>;
  },
): Promise<{ ok: true; text: string } | GatewayFailure> {
  const { response, expected, fail, ending } = answer;
  const limitBytes = exchange.context.maxAnswerBytes;
  const failWith = (input: FailureInput) => {
    const failure = fail(input);
    ending.close(failure.message);
    return failure;
  };
  const tooLarge = (announced: number | null) =>
    failWith(tooLargeInput(response, answer.ids, limitBytes, announced));
  if (expected !== null && expected > limitBytes) return tooLarge(expected);
  let bytes: Buffer;
  try {
    bytes = await readAll(answer.body, limitBytes, expected);
  } catch (error) {
    if (error instanceof BodyTooLarge) return tooLarge(null);
    const failure = ending.bodyFailure(error);
    ending.close(failure.message);
    return failure;
  }
  if (expected !== null && bytes.byteLength < expected) {
    // An answer cut short: for an API call that is a dropped connection, not a download.
    return failWith({ kind: 'network', phase: 'body', code: 'truncated' });
  }
  try {
    return { ok: true, text: bytes.toString('utf8') };
  } catch {
    // ERR_STRING_TOO_LONG: a limit set above what one string can hold.
    return tooLarge(null);
  }
}

/** An error status is that error whatever its body; a success too large to read is not one. */
function tooLargeInput(
  response: AnswerHead,
  requestIds: RequestIds,
  limitBytes: number,
  announcedBytes: number | null,
): FailureInput {
  const { status, headers } = response;
  if (status >= 200 && status < 300) {
    return { kind: 'too-large', status, limitBytes, announcedBytes, requestIds };
  }
  return { kind: 'http', status, headers, contentType: header(headers, 'content-type') };
}

/** undici keeps the connection busy until a body is read to the end or destroyed. */
function release(body: Readable): void {
  if (!body.readableEnded && !body.destroyed) body.destroy();
}

/** Parses JSON, or says it is not JSON (undefined). */
export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
