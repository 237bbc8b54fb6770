import type { GatewayTimeouts } from '../../../../shared/gateway/profile.ts';
import { apiRoot } from '../../../../shared/gateway/profile.ts';
import type { GatewayFailure, RequestIds } from '../../../../shared/gateway/outcome.ts';
import { redact } from '../../../../shared/gateway/redact.ts';
import { BEFORE_SEND_CODES, classifyFailure, type FailureInput } from '../classify/classify.ts';
import { requestIdsOf } from '../classify/request-ids.ts';
import type { GatewayContext } from '../context.ts';
import { GatewayError, networkCode } from './errors.ts';

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

/** An answer whose headers have arrived; its body is still to be read (or streamed). */
export interface OpenAnswer {
  response: Response;
  requestIds: RequestIds;
  /** Reads the whole body as text; a body cut off or timed out becomes a failure. */
  text(): Promise<{ ok: true; text: string } | GatewayFailure>;
  /** The body as bytes; errors while reading surface as GatewayError. Ends the timers. */
  stream(): ReadableStream<Uint8Array>;
  /** Request ids from the headers and a parsed body, cleaned of the key. */
  idsOf(body: unknown): RequestIds;
  /** Classifies with this exchange's context (ids, key redaction, Retry-After cap). */
  fail(input: FailureInput): GatewayFailure;
  /** Ends the exchange: timers stop, the body is released if unread, one log line. */
  close(note?: string): void;
}

class PhaseTimeout extends Error {
  readonly phase: 'response' | 'body';
  readonly afterMs: number;
  constructor(phase: 'response' | 'body', afterMs: number) {
    super(`${phase} time-out after ${afterMs} ms`);
    this.phase = phase;
    this.afterMs = afterMs;
  }
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

function targetOf(context: GatewayContext, spec: ExchangeSpec): { url: URL; auth: boolean } {
  if (spec.url) {
    const url = new URL(spec.url);
    // The key goes only to the gateway itself, never to a storage host behind a file link.
    return { url, auth: url.origin === new URL(context.profile.baseUrl).origin };
  }
  return { url: new URL(apiRoot(context.profile) + (spec.path ?? '')), auth: true };
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
  const { url, auth } = targetOf(context, spec);
  const where = `${spec.method} ${url.origin}${url.pathname}`; // no query: links may carry tokens
  let secret: string | null = null;

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

  // Extra headers often carry a second credential: like the key, only the gateway gets them.
  const headers: Record<string, string> = auth ? { ...profile.extraHeaders } : {};
  if (auth) {
    const key = await readKey(context);
    if ('problem' in key) {
      const failure = classify({ kind: 'no-key', detail: key.problem });
      logLine(`${where} → not sent: ${failure.message}`);
      return failure;
    }
    secret = key.key;
    headers.authorization = `Bearer ${key.key}`;
  }
  if (spec.accept) headers.accept = spec.accept;
  let body: string | FormData | undefined;
  if (spec.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(spec.json);
  } else if (spec.form) {
    body = spec.form; // fetch writes the multipart boundary itself
  }

  const timer = new AbortController();
  const responseTimer = setTimeout(
    () => timer.abort(new PhaseTimeout('response', timeouts.responseMs)),
    timeouts.responseMs,
  );
  const totalTimer = setTimeout(
    () => timer.abort(new PhaseTimeout('body', timeouts.totalMs)),
    timeouts.totalMs,
  );
  // The timers guard a request; they must not keep a finished CLI process alive on their own.
  responseTimer.unref();
  totalTimer.unref();
  const stopTimers = () => {
    clearTimeout(responseTimer);
    clearTimeout(totalTimer);
  };
  const signal = options.signal ? AbortSignal.any([options.signal, timer.signal]) : timer.signal;

  if (options.signal?.aborted) {
    stopTimers();
    return classify({ kind: 'canceled', sent: false });
  }

  let response: Response;
  try {
    response = await context.fetch(url, {
      method: spec.method,
      headers,
      body,
      signal,
      dispatcher: context.pool,
    } as RequestInit);
  } catch (error) {
    stopTimers();
    const failure = classify(sendFailure(error, options.signal, timer.signal));
    logLine(`${where} → ${failure.kind} after ${context.now() - started} ms: ${failure.message}`);
    return failure;
  }
  clearTimeout(responseTimer);
  const requestIds = requestIdsOf(response.headers, undefined, profile.requestIdHeader, [secret]);

  const bodyFailure = (error: unknown): GatewayFailure => {
    if (options.signal?.aborted) return classify({ kind: 'canceled', sent: true }, requestIds);
    const reason = timer.signal.reason;
    if (timer.signal.aborted && reason instanceof PhaseTimeout) {
      return classify({ kind: 'timeout', phase: 'body', afterMs: reason.afterMs }, requestIds);
    }
    return classify({ kind: 'network', phase: 'body', code: networkCode(error) }, requestIds);
  };

  let closed = false;
  const close = (note?: string) => {
    if (closed) return;
    closed = true;
    stopTimers();
    if (!response.bodyUsed && response.body) response.body.cancel().catch(() => {});
    const id = requestIds.requestId ? ` [${requestIds.requestId}]` : '';
    logLine(
      `${where} → ${response.status} in ${context.now() - started} ms${id}${note ? `: ${note}` : ''}`,
    );
  };

  return {
    response,
    requestIds,
    idsOf: (parsed) => requestIdsOf(response.headers, parsed, profile.requestIdHeader, [secret]),
    fail: (input) => classify(input, requestIds),
    close,
    async text() {
      try {
        const text = await response.text();
        return { ok: true, text };
      } catch (error) {
        const failure = bodyFailure(error);
        close(failure.message);
        return failure;
      }
    },
    stream() {
      const source = response.body;
      if (!source) {
        close();
        return new ReadableStream({ start: (controller) => controller.close() });
      }
      const reader = source.getReader();
      const expected = Number(response.headers.get('content-length') ?? Number.NaN);
      let received = 0;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const { done, value } = await reader.read();
            if (!done) {
              received += value.byteLength;
              controller.enqueue(value);
              return;
            }
            if (Number.isFinite(expected) && received < expected) {
              const failure = classify({ kind: 'truncated', expected, received }, requestIds);
              close(failure.message);
              controller.error(new GatewayError(failure));
              return;
            }
            close();
            controller.close();
          } catch (error) {
            const failure = bodyFailure(error);
            close(failure.message);
            controller.error(new GatewayError(failure));
          }
        },
        async cancel(reason) {
          closed = true;
          stopTimers();
          await reader.cancel(reason).catch(() => {});
        },
      });
    },
  };
}

/** What a rejected fetch means: canceled, our own time-out, or a connection failure. */
function sendFailure(
  error: unknown,
  cancel: AbortSignal | undefined,
  timer: AbortSignal,
): FailureInput {
  if (cancel?.aborted) return { kind: 'canceled', sent: true };
  const code = networkCode(error);
  if (timer.aborted && timer.reason instanceof PhaseTimeout) {
    // Our timer fired before any answer. The request may well have been sent; only a failed
    // connect proves otherwise, and that would have ended the fetch with its own error code.
    return { kind: 'timeout', phase: 'response', afterMs: timer.reason.afterMs };
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
