import { describe, expect, it } from 'vitest';
import type { Decision, FailureKind, GatewayFailure } from '../../../shared/gateway/outcome.ts';
import { NO_REQUEST_IDS } from '../../../shared/gateway/outcome.ts';
import { planAfterFailure } from '../../../main/core/engine/attempt-plan.ts';
import { DEFAULT_BACKOFF } from '../../../main/core/engine/backoff.ts';

const policy = { ...DEFAULT_BACKOFF, baseMs: 100, capMs: 1000, maxAttempts: 3 };
const NOW = 1_000_000;

function failure(
  decision: Decision,
  kind: FailureKind,
  extra: Partial<GatewayFailure> = {},
): GatewayFailure {
  return {
    ok: false,
    decision,
    kind,
    message: `${kind} happened`,
    status: null,
    code: null,
    type: null,
    retryAfterMs: null,
    sent: true,
    requestIds: NO_REQUEST_IDS,
    ...extra,
  };
}

describe('planAfterFailure', () => {
  it.each([
    ['retry-backoff', 'server'],
    ['retry-backoff', 'network'],
    ['retry-backoff', 'empty-result'],
    ['retry-after', 'server'],
  ] as const)(
    '%s (%s) retries after a jittered backoff while attempts remain',
    (decision, kind) => {
      const plan = planAfterFailure(failure(decision, kind), 1, policy, NOW, () => 0.5);
      expect(plan).toEqual({ to: 'retrying', nextAttemptAt: NOW + 50, rateLimited: false });
    },
  );

  it('honours Retry-After as the earliest next attempt and flags a 429', () => {
    const limited = failure('retry-after', 'rate-limited', { retryAfterMs: 700, status: 429 });
    expect(planAfterFailure(limited, 2, policy, NOW, () => 0)).toEqual({
      to: 'retrying',
      nextAttemptAt: NOW + 700,
      rateLimited: true,
    });
    // a 429 without the header still backs off and is still a rate limit
    const bare = failure('retry-backoff', 'rate-limited', { status: 429 });
    expect(planAfterFailure(bare, 2, policy, NOW, () => 0.5)).toEqual({
      to: 'retrying',
      nextAttemptAt: NOW + 100,
      rateLimited: true,
    });
  });

  it.each([
    ['server', 'retries-exhausted', false],
    ['network', 'retries-exhausted', false],
    ['rate-limited', 'retries-exhausted', true],
    ['empty-result', 'empty-result', false],
  ] as const)('%s on the last attempt fails as %s', (kind, expected, rateLimited) => {
    const plan = planAfterFailure(failure('retry-backoff', kind), 3, policy, NOW, () => 0.5);
    expect(plan).toEqual({ to: 'failed', failure: expected, rateLimited });
  });

  it('a 429 once rate limits persist: the job waits (even on its last attempt), the queue pauses', () => {
    const limited = failure('retry-after', 'rate-limited', { retryAfterMs: 700, status: 429 });
    for (const attempts of [1, 3, 7]) {
      const plan = planAfterFailure(limited, attempts, policy, NOW, () => 0, {
        rateLimitPersists: true,
      });
      expect(plan).toEqual({
        to: 'retrying',
        nextAttemptAt: NOW + 700,
        rateLimited: true,
        pauseQueue: {
          reason: expect.stringMatching(/^The gateway keeps rate limiting/),
          code: 'rate-limit',
        },
      });
    }
    // other failures are planned as before, persisting rate limits or not
    const server = planAfterFailure(failure('retry-backoff', 'server'), 3, policy, NOW, () => 0, {
      rateLimitPersists: true,
    });
    expect(server).toEqual({ to: 'failed', failure: 'retries-exhausted', rateLimited: false });
  });

  it('never-replay fails as uncertain on any attempt, even the first', () => {
    for (const kind of ['uncertain', 'bad-response'] as const) {
      expect(planAfterFailure(failure('never-replay', kind), 1, policy, NOW)).toEqual({
        to: 'failed',
        failure: 'uncertain',
        rateLimited: false,
      });
    }
  });

  it.each(['auth', 'permission', 'balance'] as const)(
    'pause-queue (%s) hands the job back with the reason, whatever the attempt',
    (kind) => {
      for (const attempts of [1, 3, 10]) {
        expect(planAfterFailure(failure('pause-queue', kind), attempts, policy, NOW)).toEqual({
          to: 'queued',
          pauseReason: `${kind} happened`,
        });
      }
    },
  );

  it.each([
    ['invalid-request', 'rejected'],
    ['not-found', 'rejected'],
    ['task-failed', 'task-failed'],
    ['empty-result', 'empty-result'],
    ['auth', 'auth'],
    ['permission', 'permission'],
    ['balance', 'balance'],
    ['bad-response', 'internal'],
    ['canceled', 'internal'],
    ['expired-link', 'internal'],
  ] as const)('fail (%s) fails as %s without a retry', (kind, expected) => {
    expect(planAfterFailure(failure('fail', kind), 1, policy, NOW)).toEqual({
      to: 'failed',
      failure: expected,
      rateLimited: false,
    });
  });
});
