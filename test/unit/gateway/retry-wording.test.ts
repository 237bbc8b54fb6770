import { describe, expect, it } from 'vitest';
import { asFinal, WILL_RETRY } from '../../../main/core/gateway/classify/retry-wording.ts';
import { classifyFailure } from '../../../main/core/gateway/classify/classify.ts';

const context = { requestIdHeader: 'X-Svc-Request-Id', maxRetryAfterMs: 60_000, nowMs: 0 };

describe('asFinal', () => {
  it('replaces the promise and what qualifies it, keeping the rest and the request id', () => {
    expect(asFinal(`Nothing was charged; ${WILL_RETRY}. (request id req_1)`, 5)).toBe(
      'Nothing was charged; Atelier gave up after 5 tries. (request id req_1)',
    );
    expect(asFinal(`Fewer requests at once; ${WILL_RETRY} in 2.5 s.`, 3)).toBe(
      'Fewer requests at once; Atelier gave up after 3 tries.',
    );
    expect(asFinal(`Nothing was sent; ${WILL_RETRY}. If this lasts, check it.`, 1)).toBe(
      'Nothing was sent; Atelier gave up after 1 try. If this lasts, check it.',
    );
  });

  it('adds how many tries were made to a message without a promise', () => {
    expect(asFinal('The download stalled.', 2)).toBe(
      'The download stalled. Atelier gave up after 2 tries.',
    );
  });

  it('every retryable message the client writes can be made final', () => {
    const inputs = [
      { kind: 'http', status: 500 },
      { kind: 'http', status: 429 },
      { kind: 'http', status: 429, headers: { 'retry-after': '2' } },
      { kind: 'network', phase: 'connect', code: 'ECONNREFUSED' },
      { kind: 'network', phase: 'body', code: 'ECONNRESET' },
      { kind: 'timeout', phase: 'connect' },
      { kind: 'empty-data' },
    ] as const;
    for (const input of inputs) {
      const failure = classifyFailure(input, context);
      expect(failure.decision, input.kind).toMatch(/^retry-/);
      expect(failure.message).toContain(WILL_RETRY);
      expect(asFinal(failure.message, 5)).not.toMatch(/tried again|trying again/i);
    }
  });
});
