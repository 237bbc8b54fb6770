import { describe, expect, it } from 'vitest';
import {
  classifyFailure,
  type ClassifyContext,
  type FailureInput,
} from '../../../main/core/gateway/classify/classify.ts';
import type { Decision, FailureKind } from '../../../shared/gateway/outcome.ts';

const NOW = Date.parse('2026-11-22T10:00:00Z');
const context: ClassifyContext = {
  requestIdHeader: 'X-Svc-Request-Id',
  maxRetryAfterMs: 120_000,
  nowMs: NOW,
};

const apiError = (code: string, type = 'invalid_request_error', message = 'details') => ({
  error: { type, code, message },
  upstream_request_id: 'up_1',
});
const http = (
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): FailureInput => ({
  kind: 'http',
  status,
  body,
  headers: { 'X-Svc-Request-Id': 'req_1', ...headers },
});

// Every row of interface section 7 and the rules around it, with the decision docs/design.md asks.
const rows: Array<[string, FailureInput, Decision, FailureKind]> = [
  [
    'advanced entry refuses image_urls (400)',
    http(400, apiError('field_closed')),
    'fail',
    'invalid-request',
  ],
  [
    'field not belonging to the endpoint (400)',
    http(400, apiError('unknown_parameter')),
    'fail',
    'invalid-request',
  ],
  ['field of the wrong type (422)', http(422, apiError('invalid_type')), 'fail', 'invalid-request'],
  ['empty data in a 200', { kind: 'empty-data' }, 'retry-backoff', 'empty-result'],
  [
    'insufficient_user_quota with 403',
    http(403, apiError('insufficient_user_quota', 'new_api_error')),
    'pause-queue',
    'balance',
  ],
  [
    'insufficient_user_quota with 402',
    http(402, apiError('insufficient_user_quota')),
    'pause-queue',
    'balance',
  ],
  [
    'insufficient_user_quota with 400',
    http(400, apiError('insufficient_user_quota')),
    'pause-queue',
    'balance',
  ],
  [
    'insufficient_user_quota with 429',
    http(429, apiError('insufficient_user_quota'), { 'retry-after': '1' }),
    'pause-queue',
    'balance',
  ],
  [
    'insufficient_user_quota with 500',
    http(500, apiError('insufficient_user_quota')),
    'pause-queue',
    'balance',
  ],
  ['402 without a code', http(402), 'pause-queue', 'balance'],
  [
    'OpenAI insufficient_quota with 429',
    http(429, apiError('insufficient_quota')),
    'pause-queue',
    'balance',
  ],
  [
    'pre_consume_token_quota_failed (403)',
    http(403, apiError('pre_consume_token_quota_failed')),
    'pause-queue',
    'balance',
  ],
  [
    'pre_consume_token_quota_failed (500)',
    http(500, apiError('pre_consume_token_quota_failed')),
    'pause-queue',
    'balance',
  ],
  ['authentication (401)', http(401, apiError('invalid_api_key')), 'pause-queue', 'auth'],
  ['401 with an HTML body', http(401, undefined), 'pause-queue', 'auth'],
  [
    'permission (403)',
    http(403, apiError('model_not_allowed', 'permission_error')),
    'pause-queue',
    'permission',
  ],
  [
    'rate limited (429) with Retry-After',
    http(429, apiError('rate_limit_exceeded'), { 'Retry-After': '3' }),
    'retry-after',
    'rate-limited',
  ],
  [
    'rate limited (429) without a wait',
    http(429, apiError('rate_limit_exceeded')),
    'retry-backoff',
    'rate-limited',
  ],
  ['500', http(500, apiError('internal_error', 'server_error')), 'retry-backoff', 'server'],
  ['502', http(502, apiError('bad_gateway', 'server_error')), 'retry-backoff', 'server'],
  ['503', http(503, apiError('service_unavailable', 'server_error')), 'retry-backoff', 'server'],
  ['503 with Retry-After', http(503, undefined, { 'Retry-After': '7' }), 'retry-after', 'server'],
  ['502 HTML page from a proxy', http(502, undefined), 'retry-backoff', 'server'],
  ['408 (server gave up reading)', http(408), 'retry-backoff', 'server'],
  ['504', http(504, apiError('gateway_timeout', 'server_error')), 'never-replay', 'uncertain'],
  ['524', http(524, apiError('origin_timeout', 'server_error')), 'never-replay', 'uncertain'],
  ['504 with an HTML body', http(504, undefined), 'never-replay', 'uncertain'],
  ['unknown model (404)', http(404, apiError('model_not_found')), 'fail', 'not-found'],
  ['405', http(405, apiError('method_not_allowed')), 'fail', 'invalid-request'],
  ['413', http(413, apiError('request_too_large')), 'fail', 'invalid-request'],
  ['200 carrying only an error object', http(200, apiError('something')), 'fail', 'bad-response'],
  [
    'task FAILURE',
    { kind: 'task', code: 'video_generation_failed', failReason: 'upstream refused' },
    'fail',
    'task-failed',
  ],
  [
    'task FAILURE for lack of quota',
    { kind: 'task', code: 'insufficient_user_quota', message: 'top up' },
    'pause-queue',
    'balance',
  ],
  [
    'connection refused',
    { kind: 'network', phase: 'connect', code: 'ECONNREFUSED' },
    'retry-backoff',
    'network',
  ],
  [
    'DNS failure reported late',
    { kind: 'network', phase: 'sent', code: 'ENOTFOUND' },
    'retry-backoff',
    'network',
  ],
  [
    'dropped after sending',
    { kind: 'network', phase: 'sent', code: 'UND_ERR_SOCKET' },
    'retry-backoff',
    'network',
  ],
  [
    'reset in the middle of the body',
    { kind: 'network', phase: 'body', code: 'UND_ERR_SOCKET' },
    'retry-backoff',
    'network',
  ],
  [
    'connect time-out (nothing sent)',
    { kind: 'timeout', phase: 'connect' },
    'retry-backoff',
    'network',
  ],
  [
    'time-out waiting for the answer',
    { kind: 'timeout', phase: 'response', afterMs: 5000 },
    'never-replay',
    'uncertain',
  ],
  [
    'time-out while the body arrives',
    { kind: 'timeout', phase: 'body', afterMs: 5000 },
    'never-replay',
    'uncertain',
  ],
  [
    '200 with a body that is not JSON',
    { kind: 'bad-body', status: 200, contentType: 'text/html' },
    'never-replay',
    'bad-response',
  ],
  ['canceled', { kind: 'canceled', sent: true }, 'fail', 'canceled'],
  [
    'refused by validation',
    { kind: 'invalid', problems: ['The prompt is empty.'] },
    'fail',
    'invalid-request',
  ],
  ['no key', { kind: 'no-key', detail: 'none is set' }, 'pause-queue', 'auth'],
  [
    'download cut short',
    { kind: 'truncated', expected: 100, received: 50 },
    'retry-backoff',
    'network',
  ],
];

describe('classifyFailure: interface section 7', () => {
  it.each(rows)('%s → %s (%s)', (_, input, decision, kind) => {
    const failure = classifyFailure(input, context);
    expect(failure).toMatchObject({ ok: false, decision, kind });
    expect(failure.message.length).toBeGreaterThan(10);
  });

  it('covers every decision', () => {
    const decisions = new Set(rows.map(([, input]) => classifyFailure(input, context).decision));
    expect([...decisions].sort()).toEqual(
      ['fail', 'never-replay', 'pause-queue', 'retry-after', 'retry-backoff'].sort(),
    );
  });

  it("honours the server's wait on 429, from retry-after-ms first", () => {
    const failure = classifyFailure(
      http(429, apiError('rate_limit_exceeded'), { 'Retry-After': '3', 'retry-after-ms': '2500' }),
      context,
    );
    expect(failure.retryAfterMs).toBe(2500);
    expect(failure.message).toContain('2.5 s');
  });

  it('caps an absurd Retry-After', () => {
    const failure = classifyFailure(http(429, undefined, { 'Retry-After': '86400' }), context);
    expect(failure.retryAfterMs).toBe(120_000);
  });

  it('keeps the status, code, type and both request ids', () => {
    const failure = classifyFailure(
      http(504, apiError('gateway_timeout', 'server_error')),
      context,
    );
    expect(failure).toMatchObject({
      status: 504,
      code: 'gateway_timeout',
      type: 'server_error',
      requestIds: { requestId: 'req_1', upstreamRequestId: 'up_1' },
    });
    expect(failure.message).toContain('req_1');
    expect(failure.message).toMatch(/may have finished and been charged/);
  });

  it('reads task-style errors: top-level code and message', () => {
    const failure = classifyFailure(
      http(403, { code: 'insufficient_user_quota', message: 'no money', data: null }),
      context,
    );
    expect(failure).toMatchObject({ decision: 'pause-queue', code: 'insufficient_user_quota' });
    expect(failure.message).toContain('no money');
  });

  it('reads a bare {error: "text"} body', () => {
    expect(classifyFailure(http(400, { error: 'size is wrong' }), context).message).toContain(
      'size is wrong',
    );
  });

  it('marks what never left the machine', () => {
    expect(classifyFailure({ kind: 'invalid', problems: ['x'] }, context).sent).toBe(false);
    expect(
      classifyFailure({ kind: 'network', phase: 'connect', code: 'ECONNREFUSED' }, context).sent,
    ).toBe(false);
    expect(classifyFailure({ kind: 'timeout', phase: 'connect' }, context).sent).toBe(false);
    expect(classifyFailure({ kind: 'timeout', phase: 'response' }, context).sent).toBe(true);
    expect(classifyFailure({ kind: 'network', phase: 'body', code: null }, context).sent).toBe(
      true,
    );
  });

  it('calls a 404 on a file link an expired link', () => {
    const failure = classifyFailure(http(404, apiError('file_expired')), {
      ...context,
      target: 'file',
    });
    expect(failure).toMatchObject({ decision: 'fail', kind: 'expired-link' });
    expect(failure.message).toMatch(/expired/);
  });

  it('says when an error body is not JSON', () => {
    const failure = classifyFailure(
      { kind: 'http', status: 502, body: undefined, contentType: 'text/html' },
      context,
    );
    expect(failure.message).toContain('not JSON (text/html)');
  });

  it('never repeats the key, even when the gateway echoes it', () => {
    const key = 'sk-live-abcdefghijklmnop';
    const failure = classifyFailure(
      http(401, apiError('invalid_api_key', 'x', `Invalid key ${key}`)),
      {
        ...context,
        secrets: [key],
      },
    );
    expect(failure.message).not.toContain(key);
    expect(failure.message).not.toContain('abcdefghijklmnop');
    const other = 'ZZ-not-sk-shaped-secret';
    const echoed = classifyFailure(http(400, apiError('bad', 'x', `got ${other}`)), {
      ...context,
      secrets: [other],
    });
    expect(echoed.message).not.toContain(other);
  });
});
