import type {
  Decision,
  FailureKind,
  GatewayFailure,
  RequestIds,
} from '../../../../shared/gateway/outcome.ts';
import { NO_REQUEST_IDS } from '../../../../shared/gateway/outcome.ts';
import { redact } from '../../../../shared/gateway/redact.ts';
import {
  ApiErrorBodySchema,
  TaskErrorBodySchema,
  type ErrorDetails,
} from '../../../../shared/gateway/wire/errors.ts';
import type { HeaderBag } from './headers.ts';
import { requestIdsOf } from './request-ids.ts';
import { retryAfterMs } from './retry-after.ts';
import { WILL_RETRY } from './retry-wording.ts';

/**
 * Everything that can go wrong with a gateway call, as plain data. The HTTP layer only
 * describes what happened; this module alone decides what it means (interface section 7).
 */
export type FailureInput =
  /** An HTTP answer that is not a success; `body` is the parsed JSON, or undefined if unparsable. */
  | {
      kind: 'http';
      status: number;
      headers?: HeaderBag;
      body?: unknown;
      contentType?: string | null;
    }
  /** A task record (video) in state FAILURE, with its error `{code, message, data}`. */
  | {
      kind: 'task';
      code?: string | number | null;
      message?: string | null;
      failReason?: string | null;
      requestIds?: RequestIds;
    }
  /**
   * The connection failed. `connect`: it never opened, nothing was sent. `sent`: it dropped
   * after sending, before the answer. `body`: it dropped while the answer was arriving.
   */
  | {
      kind: 'network';
      phase: 'connect' | 'sent' | 'body';
      code: string | null;
      requestIds?: RequestIds;
    }
  /** Atelier's own time-out; `connect` is before anything was sent. */
  | {
      kind: 'timeout';
      phase: 'connect' | 'response' | 'body';
      afterMs?: number;
      requestIds?: RequestIds;
    }
  | { kind: 'canceled'; sent: boolean; requestIds?: RequestIds }
  /** A success status whose body is not what the endpoint returns. */
  | {
      kind: 'bad-body';
      status: number;
      contentType?: string | null;
      detail?: string;
      requestIds?: RequestIds;
    }
  /** 200 with an empty `data` array (interface 2.5 rule 2). */
  | { kind: 'empty-data'; requestIds?: RequestIds }
  /** Refused by Atelier before sending: nothing left the machine. */
  | { kind: 'invalid'; problems: string[] }
  /** No usable key: nothing can be sent until a person sets one. */
  | { kind: 'no-key'; detail?: string }
  /** A downloaded body shorter than its announced length. */
  | { kind: 'truncated'; expected: number; received: number; requestIds?: RequestIds }
  /**
   * An answer larger than the client's limit (`announcedBytes`: its Content-Length said so, and
   * nothing was read): it is not held in memory.
   */
  | {
      kind: 'too-large';
      status: number;
      limitBytes: number;
      announcedBytes?: number | null;
      requestIds?: RequestIds;
    }
  /** A redirect to an address that is not http or https (`file:`, `ftp:`…): not followed. */
  | { kind: 'redirect-refused'; scheme: string; requestIds?: RequestIds }
  /** A success whose result is not an image that can be used; `detail` says what it is. */
  | { kind: 'not-an-image'; status: number; detail: string; requestIds?: RequestIds };

export interface ClassifyContext {
  requestIdHeader: string;
  maxRetryAfterMs: number;
  nowMs: number;
  /** Strings never to repeat (the key); `sk-…` shapes are removed regardless. */
  secrets?: Array<string | null | undefined>;
  /** What was being fetched, for 404 wording: an API call or a temporary file link. */
  target?: 'api' | 'file';
}

/**
 * Balance codes pause the queue whatever the status (interface 7: "the HTTP status is not
 * fixed"). `pre_consume_token_quota_failed` is "not to be retried automatically"; it also
 * pauses, because the key's cap or the balance refuses every later call the same way, and
 * only a person can raise it. `insufficient_quota` is the OpenAI spelling of the same thing.
 */
const BALANCE_CODES = new Set([
  'insufficient_user_quota',
  'pre_consume_token_quota_failed',
  'insufficient_quota',
  'quota_exceeded',
]);

/** Connection errors that prove nothing was sent. */
export const BEFORE_SEND_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function classifyFailure(input: FailureInput, context: ClassifyContext): GatewayFailure {
  const failure = decide(input, context);
  const secrets = context.secrets ?? [];
  const said = failure.said === undefined ? {} : { said: redact(failure.said, ...secrets) };
  return { ...failure, ...said, message: redact(withRequestId(failure), ...secrets) };
}

type Draft = Omit<GatewayFailure, 'ok'> & { ok: false };

function draft(
  decision: Decision,
  kind: FailureKind,
  message: string,
  rest: Partial<Omit<GatewayFailure, 'ok' | 'decision' | 'kind' | 'message'>> = {},
): Draft {
  return {
    ok: false,
    decision,
    kind,
    message,
    status: rest.status ?? null,
    code: rest.code ?? null,
    type: rest.type ?? null,
    retryAfterMs: rest.retryAfterMs ?? null,
    sent: rest.sent ?? true,
    requestIds: rest.requestIds ?? NO_REQUEST_IDS,
    ...(rest.said ? { said: rest.said } : {}),
  };
}

function withRequestId(failure: Draft): string {
  const id = failure.requestIds.requestId ?? failure.requestIds.upstreamRequestId;
  return id ? `${failure.message} (request id ${id})` : failure.message;
}

function decide(input: FailureInput, context: ClassifyContext): Draft {
  switch (input.kind) {
    case 'http':
      return classifyHttp(input, context);
    case 'task':
      return classifyTask(input);
    case 'network':
      return classifyNetwork(input);
    case 'timeout':
      return classifyTimeout(input, context);
    case 'canceled':
      return draft(
        'fail',
        'canceled',
        input.sent
          ? 'Canceled after the request was sent: the gateway may still finish the work and charge it.'
          : 'Canceled before the request was sent; nothing was charged.',
        {
          sent: input.sent,
          requestIds: input.requestIds,
        },
      );
    case 'bad-body':
      // The gateway said "success": the work was probably done and charged. Replaying would
      // pay twice for a result that may be sitting in the usage log.
      return draft(
        'never-replay',
        'bad-response',
        `The gateway answered ${input.status} but the answer could not be read` +
          `${describeBody(input.contentType, input.detail)}. The work may have been done and charged, so it is not retried automatically; check the usage log before retrying.`,
        { status: input.status, requestIds: input.requestIds },
      );
    case 'empty-data':
      // Interface 2.5 rule 2 + 1: a failed generation, and failures are not charged.
      return draft(
        'retry-backoff',
        'empty-result',
        `The gateway answered without any image: the generation failed. Failed generations are not charged; ${WILL_RETRY}.`,
        { status: 200, code: 'empty_data', requestIds: input.requestIds },
      );
    case 'invalid':
      return draft('fail', 'invalid-request', `Not sent: ${input.problems.join(' ')}`, {
        sent: false,
        code: 'invalid_request',
      });
    case 'no-key':
      return draft(
        'pause-queue',
        'auth',
        `No usable API key${input.detail ? ` (${input.detail})` : ''}. Add the key in Settings (or set ATELIER_API_KEY), then resume the queue.`,
        { sent: false, code: 'no_api_key' },
      );
    case 'too-large':
      return classifyTooLarge(input);
    case 'redirect-refused':
      return draft(
        'fail',
        'bad-response',
        `The gateway redirected to a ${input.scheme} address; Atelier follows redirects only to http and https addresses, so it stopped there. It is not retried: the gateway (or the storage behind its links) sends something no client should follow; tell its operator.`,
        { code: 'redirect_refused', requestIds: input.requestIds },
      );
    case 'not-an-image':
      // A success status: the generation was probably charged. Only the person may ask again.
      return draft(
        'fail',
        'not-an-image',
        `The gateway answered ${input.status}, but ${input.detail}. The generation may have been charged, so it is not retried automatically; "retry failed" asks for it again (a new request).`,
        { status: input.status, code: 'not_an_image', requestIds: input.requestIds },
      );
    case 'truncated':
      return draft(
        'retry-backoff',
        'network',
        `The download was cut short (${input.received} of ${input.expected} bytes). Retry the download; the image does not need to be generated again.`,
        { code: 'truncated', requestIds: input.requestIds },
      );
  }
}

/** `{error: {type, code, message}}` (rule 1) or task-style top-level `code`, `message` (rule 2). */
function errorDetails(body: unknown): ErrorDetails {
  const text = (value: string | number | null | undefined) =>
    value === null || value === undefined || value === '' ? null : String(value);
  const api = ApiErrorBodySchema.safeParse(body);
  if (api.success) {
    const { type, code, message } = api.data.error;
    return { type: text(type), code: text(code), message: text(message) };
  }
  const task = TaskErrorBodySchema.safeParse(body);
  if (task.success && (text(task.data.code) ?? text(task.data.message)) !== null) {
    return { type: null, code: text(task.data.code), message: text(task.data.message) };
  }
  // Some proxies send `{error: "text"}`.
  const loose = body as { error?: unknown } | null;
  const message = typeof loose?.error === 'string' ? loose.error : null;
  return { type: null, code: null, message };
}

function gatewaySays(status: number | null, details: ErrorDetails): string {
  const label = [status, details.code].filter((part) => part !== null).join(' ');
  return details.message ? `${label}: ${details.message}` : label;
}

function classifyHttp(
  input: Extract<FailureInput, { kind: 'http' }>,
  context: ClassifyContext,
): Draft {
  const { status } = input;
  const details = errorDetails(input.body);
  const requestIds = requestIdsOf(
    input.headers,
    input.body,
    context.requestIdHeader,
    context.secrets,
  );
  const said = gatewaySays(status, details);
  const notJson = input.body === undefined ? describeBody(input.contentType) : '';
  const base = { status, code: details.code, type: details.type, requestIds, said };

  if ((details.code && BALANCE_CODES.has(details.code)) || status === 402) {
    const precheck = details.code === 'pre_consume_token_quota_failed';
    return draft(
      'pause-queue',
      'balance',
      precheck
        ? `The gateway could not reserve quota for this call (${said}). The key's quota cap or the account balance is too low: raise it in the console, then resume the queue. Not retried automatically.`
        : `The account balance is too low (${said}). Top up in the console, then resume the queue.`,
      base,
    );
  }
  if (status === 401) {
    return draft(
      'pause-queue',
      'auth',
      `The gateway refused the API key (${said})${notJson}. Check or replace the key in Settings, then resume the queue.`,
      base,
    );
  }
  if (status === 403) {
    return draft(
      'pause-queue',
      'permission',
      `The gateway refused permission (${said})${notJson}. The key may not be allowed this model or this address; change its permissions in the console or choose another model, then resume the queue.`,
      base,
    );
  }
  if (status === 429) {
    const wait = retryAfterMs(input.headers, context.nowMs, context.maxRetryAfterMs);
    return wait === null
      ? draft(
          'retry-backoff',
          'rate-limited',
          `The gateway is rate limiting (${said}). Fewer requests are sent at once; ${WILL_RETRY} after a wait.`,
          base,
        )
      : draft(
          'retry-after',
          'rate-limited',
          `The gateway is rate limiting (${said}). Fewer requests are sent at once; ${WILL_RETRY} in ${seconds(wait)}.`,
          { ...base, retryAfterMs: wait },
        );
  }
  if (status === 504 || status === 524) {
    return draft(
      'never-replay',
      'uncertain',
      `The gateway timed out (${said})${notJson} after the request was sent: the work may have finished and been charged. It is not retried automatically; check the usage log for this request id, then choose "retry anyway" if nothing was made.`,
      base,
    );
  }
  if (status >= 500 || status === 408) {
    // Failures before any work (and a server that gave up reading the request): not charged.
    const wait = retryAfterMs(input.headers, context.nowMs, context.maxRetryAfterMs);
    const message = `The gateway had a temporary failure (${said})${notJson}. Nothing was charged; ${WILL_RETRY}.`;
    return wait === null
      ? draft('retry-backoff', 'server', message, base)
      : draft('retry-after', 'server', message, { ...base, retryAfterMs: wait });
  }
  if (status === 404) {
    return context.target === 'file'
      ? draft(
          'fail',
          'expired-link',
          `The temporary link has expired or is gone (${said}). Generated files must be copied at once; this one can only be made again by a new generation.`,
          base,
        )
      : draft(
          'fail',
          'not-found',
          `Not found (${said})${notJson}. The model name or the gateway address may be wrong; check them in Settings.`,
          base,
        );
  }
  if (status >= 400) {
    return draft(
      'fail',
      'invalid-request',
      `The gateway refused the request (${said})${notJson}. Change the parameters; sending it again as it is would fail the same way.`,
      base,
    );
  }
  // A 1xx/2xx/3xx that still is not a usable answer (e.g. 200 carrying only an error object).
  return draft(
    'fail',
    'bad-response',
    `The gateway answered ${said || status} without a usable result${notJson}.`,
    base,
  );
}

function classifyTask(input: Extract<FailureInput, { kind: 'task' }>): Draft {
  const code = input.code === null || input.code === undefined ? null : String(input.code);
  const reason = [input.failReason, input.message].filter(Boolean).join(' — ') || 'no reason given';
  const requestIds = input.requestIds ?? NO_REQUEST_IDS;
  const said = `${code ? `${code}: ` : ''}${reason}`;
  if (code && BALANCE_CODES.has(code)) {
    return draft(
      'pause-queue',
      'balance',
      `The task failed for lack of quota (${code}: ${reason}). Top up or raise the key's cap in the console, then resume the queue.`,
      { code, requestIds, said },
    );
  }
  // Failed tasks are refunded (interface 1); whether to submit again is a person's choice.
  return draft('fail', 'task-failed', `The task failed (${said}).`, { code, requestIds, said });
}

function classifyNetwork(input: Extract<FailureInput, { kind: 'network' }>): Draft {
  const code = input.code;
  const why = code ? ` (${code})` : '';
  const requestIds = input.requestIds ?? NO_REQUEST_IDS;
  if (input.phase === 'connect' || (code !== null && BEFORE_SEND_CODES.has(code))) {
    return draft(
      'retry-backoff',
      'network',
      `Could not connect to the gateway${why}. Nothing was sent; ${WILL_RETRY}. If this lasts, check the address in Settings and the network.`,
      { code, sent: false, requestIds },
    );
  }
  // Interface 1: "a dropped connection ... is not finally charged", so a retry cannot pay twice.
  return draft(
    'retry-backoff',
    'network',
    input.phase === 'body'
      ? `The connection dropped while the answer was arriving${why}. Dropped connections are not charged; ${WILL_RETRY}.`
      : `The connection dropped before the gateway answered${why}. Dropped connections are not charged; ${WILL_RETRY}.`,
    { code, requestIds },
  );
}

/**
 * Too large to hold: an error status is still that error (see callJson); a success was
 * probably done and charged, and the same request would likely bring the same answer, so only
 * the person may send it again, after raising the limit.
 */
function classifyTooLarge(input: Extract<FailureInput, { kind: 'too-large' }>): Draft {
  const size = input.announcedBytes
    ? `of ${megabytes(input.announcedBytes)}, larger than`
    : 'larger than';
  return draft(
    'never-replay',
    'uncertain',
    `The gateway answered ${input.status} with an answer ${size} the ${megabytes(input.limitBytes)} limit, so Atelier stopped reading it rather than hold it in memory. The work was probably done and charged, so it is not retried automatically: check the usage log for this request id; if answers this big are expected, raise the limit (--max-answer-mb) and choose "retry anyway".`,
    { status: input.status, code: 'answer_too_large', requestIds: input.requestIds },
  );
}

/** Whole megabytes (MiB) where exact, else two decimals: the unit the limits are set in. */
export function megabytes(bytes: number): string {
  const mb = bytes / 2 ** 20;
  return `${Number.isInteger(mb) ? mb : Math.round(mb * 100) / 100} MB`;
}

function classifyTimeout(
  input: Extract<FailureInput, { kind: 'timeout' }>,
  context: ClassifyContext,
): Draft {
  const after = input.afterMs ? ` within ${seconds(input.afterMs)}` : '';
  const requestIds = input.requestIds ?? NO_REQUEST_IDS;
  if (context.target === 'file' && input.phase !== 'connect') {
    // A file link is fetched again for free: its time-out is nothing like a generation's.
    return draft(
      'retry-backoff',
      'network',
      `The download did not finish${after}. Downloads are not charged; ${WILL_RETRY}.`,
      { code: `${input.phase}_timeout`, requestIds },
    );
  }
  if (input.phase === 'connect') {
    return draft(
      'retry-backoff',
      'network',
      `Could not connect to the gateway${after}. Nothing was sent; ${WILL_RETRY}.`,
      { code: 'connect_timeout', sent: false, requestIds },
    );
  }
  // After sending, the gateway may still finish the work and charge it (DESIGN: never replay).
  return draft(
    'never-replay',
    'uncertain',
    `${input.phase === 'response' ? 'No answer' : 'The answer did not finish arriving'}${after} after the request was sent: the work may have finished and been charged. It is not retried automatically; check the usage log, then choose "retry anyway" if nothing was made.`,
    { code: `${input.phase}_timeout`, requestIds },
  );
}

function describeBody(contentType: string | null | undefined, detail?: string): string {
  const parts: string[] = [];
  if (contentType !== undefined)
    parts.push(`the body is not JSON (${contentType ?? 'no content type'})`);
  if (detail) parts.push(detail);
  return parts.length ? `; ${parts.join('; ')}` : '';
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
