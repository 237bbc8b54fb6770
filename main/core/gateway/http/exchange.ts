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
import { requestIdsOf } from '../classify/request-ids.ts';
import type { GatewayContext } from '../context.ts';
import { contentLength, readAll, webStream } from './answer-body.ts';
import { GatewayError, networkCode } from './errors.ts';
import { startPhaseTimers, type PhaseTimers } from './phase-timers.ts';
import { sendFollowingRedirects } from './redirects.ts';
import { encodeBody } from './request-body.ts';
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
  /** Reads the whole body as text; a body cut off or timed out becomes a failure. */
  text(): Promise<{ ok: true; text: string } | GatewayFailure>;
  /** The body as bytes; errors while reading surface as GatewayError. Ends the timers. */
  stream(): ReadableStream<Uint8Array>;
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

/** What fetch used to send by default; some gateways' firewalls look at them. */
const DEFAULT_HEADERS = { accept: '*/*', 'user-agent': 'node' };

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
 * Sends one request and waits for the response headers. Everything that can go wrong is
 * turned into a classified failure here, with the phase it happened in: before anything was
 * sent, after sending but before an answer, or while the answer's body was arriving.
 */
export async function openExchange(
  context: GatewayContext,
  spec: ExchangeSpec,
  options: CallOptions = {},
): Promise<OpenAnswer | GatewayFailure> {
  const { profile } = context;
  const timeouts = { ...profile.timeouts, ...options.timeouts };
  const started = context.now();
  // A stored link that carried the key gets it back here, in memory, for this request only.
  const sealed = spec.url !== undefined && holdsSealedKey(spec.url);
  let secret: string | null = null;
  if (sealed) {
    const key = await readKey(context);
    if ('key' in key) secret = key.key;
  }
  const { url, gatewayOrigin, auth } = targetOf(
    context,
    spec,
    sealed && secret !== null ? unsealKeyInUrl(spec.url!, secret) : undefined,
  );
  const where = `${spec.method} ${url.origin}${url.pathname}`; // no query: links may carry tokens

  const classify = (input: FailureInput, requestIds?: RequestIds) => {
    const failure = classifyFailure(input, {
      requestIdHeader: profile.requestIdHeader,
      maxRetryAfterMs: profile.maxRetryAfterMs,
      nowMs: context.now(),
      secrets: [secret],
      target: spec.url ? 'file' : 'api',
    });
    if (requestIds && !failure.requestIds.requestId && !failure.requestIds.upstreamRequestId) {
      return { ...failure, requestIds };
    }
    return failure;
  };
  const logLine = (line: string) => context.log(redact(line, secret));

  let authKey: string | null = null;
  if (auth) {
    const key = await readKey(context);
    if ('problem' in key) {
      const failure = classify({ kind: 'no-key', detail: key.problem });
      logLine(`${where} → not sent: ${failure.message}`);
      return failure;
    }
    secret = authKey = key.key;
  }
  const encoded = await encodeBody(spec);
  // Later entries win, as they did in fetch's Headers: its defaults, the profile's extra
  // headers, what this request needs, the key. Names are lower case so none is sent twice.
  const own: Record<string, string> = {};
  if (spec.accept) own.accept = spec.accept;
  if (encoded) own['content-type'] = encoded.contentType;
  const headers = { ...DEFAULT_HEADERS, ...own };
  // Extra headers often carry a second credential: like the key, only the gateway gets them.
  const gatewayHeaders =
    authKey === null
      ? null
      : {
          ...DEFAULT_HEADERS,
          ...lowerCaseNames(profile.extraHeaders),
          ...own,
          authorization: `Bearer ${authKey}`,
        };

  if (options.signal?.aborted) return classify({ kind: 'canceled', sent: false });
  const timers = startPhaseTimers(timeouts, options.signal);

  let answer: SentAnswer;
  try {
    answer = await sendFollowingRedirects(
      context.request,
      {
        url,
        method: spec.method,
        headers,
        gatewayHeaders,
        body: encoded?.body,
        signal: timers.signal,
        dispatcher: context.pool,
      },
      gatewayOrigin,
    );
  } catch (error) {
    timers.stop();
    const failure = classify(sendFailure(error, options.signal, timers));
    logLine(`${where} → ${failure.kind} after ${context.now() - started} ms: ${failure.message}`);
    return failure;
  }
  timers.answered();
  const { body } = answer;
  // undici also reports a body's failure as an 'error' event; the readers below see it anyway,
  // and an unread body destroyed by a time-out must not crash the process.
  body.on('error', () => {});
  const response: AnswerHead = { status: answer.statusCode, headers: answer.headers };
  const requestIds = requestIdsOf(response.headers, undefined, profile.requestIdHeader, [secret]);

  const bodyFailure = (error: unknown): GatewayFailure => {
    if (options.signal?.aborted) return classify({ kind: 'canceled', sent: true }, requestIds);
    const timeout = timers.timedOut();
    if (timeout) {
      return classify({ kind: 'timeout', phase: 'body', afterMs: timeout.afterMs }, requestIds);
    }
    return classify({ kind: 'network', phase: 'body', code: networkCode(error) }, requestIds);
  };

  let closed = false;
  const close = (note?: string) => {
    if (closed) return;
    closed = true;
    timers.stop();
    release(body);
    const id = requestIds.requestId ? ` [${requestIds.requestId}]` : '';
    logLine(
      `${where} → ${response.status} in ${context.now() - started} ms${id}${note ? `: ${note}` : ''}`,
    );
  };
  // A body shorter than its content-length ended cleanly only if the transport did not check.
  const expected = [204, 304].includes(response.status) ? null : contentLength(response.headers);

  return {
    response,
    requestIds,
    idsOf: (parsed) => requestIdsOf(response.headers, parsed, profile.requestIdHeader, [secret]),
    fail: (input) => classify(input, requestIds),
    cleanText: (text) => redact(text, secret),
    sealUrl: (link) => sealKeyInUrl(link, secret),
    close,
    async text() {
      let bytes: Buffer;
      try {
        bytes = await readAll(body);
      } catch (error) {
        const failure = bodyFailure(error);
        close(failure.message);
        return failure;
      }
      if (expected !== null && bytes.byteLength < expected) {
        // An answer cut short: for an API call that is a dropped connection, not a download.
        const failure = classify({ kind: 'network', phase: 'body', code: 'truncated' }, requestIds);
        close(failure.message);
        return failure;
      }
      return { ok: true, text: bytes.toString('utf8') };
    },
    stream() {
      return webStream(body, {
        ended(received) {
          if (expected !== null && received < expected) {
            const failure = classify({ kind: 'truncated', expected, received }, requestIds);
            close(failure.message);
            return new GatewayError(failure);
          }
          close();
          return null;
        },
        failed(error) {
          const failure = bodyFailure(error);
          close(failure.message);
          return new GatewayError(failure);
        },
        cancel() {
          // The reader gave up (or already failed): no log line, as with fetch.
          closed = true;
          timers.stop();
          release(body);
        },
      });
    },
  };
}

function lowerCaseNames(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}

/** undici keeps the connection busy until a body is read to the end or destroyed. */
function release(body: Readable): void {
  if (!body.readableEnded && !body.destroyed) body.destroy();
}

/** What a failed send means: canceled, our own time-out, or a connection failure. */
function sendFailure(
  error: unknown,
  cancel: AbortSignal | undefined,
  timers: PhaseTimers,
): FailureInput {
  if (cancel?.aborted) return { kind: 'canceled', sent: true };
  const code = networkCode(error);
  const timeout = timers.timedOut();
  if (timeout) {
    // Our timer fired before any answer. The request may well have been sent; only a failed
    // connect proves otherwise, and that would have ended the request with its own error code.
    return { kind: 'timeout', phase: 'response', afterMs: timeout.afterMs };
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return { kind: 'timeout', phase: 'connect' };
  if (code !== null && BEFORE_SEND_CODES.has(code))
    return { kind: 'network', phase: 'connect', code };
  return { kind: 'network', phase: 'sent', code };
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
