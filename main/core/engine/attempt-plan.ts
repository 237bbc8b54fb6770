import type { GatewayFailure } from '../../../shared/gateway/outcome.ts';
import type { FailureKind as JobFailureKind } from '../../../shared/jobs/outcomes.ts';
import { RATE_LIMIT_PAUSE_AFTER } from './adaptive-concurrency.ts';
import { mayRetry, retryDelayMs, type BackoffPolicy } from './backoff.ts';

/** What the engine does with a job after a failed attempt: pure, so every rule is table-tested. */
export type FailurePlan =
  | {
      to: 'retrying';
      nextAttemptAt: number;
      rateLimited: boolean;
      /** The gateway keeps rate limiting: the job waits, and the whole queue pauses. */
      pauseQueue?: { reason: string; code: typeof RATE_LIMIT_PAUSE_CODE };
    }
  | { to: 'failed'; failure: JobFailureKind; rateLimited: boolean }
  /** Handed back unsent work: the queue pauses, the job waits for resume. */
  | { to: 'queued'; pauseReason: string };

/** The pause code of a queue paused because the gateway keeps rate limiting. */
export const RATE_LIMIT_PAUSE_CODE = 'rate-limit';

const PAUSE_KINDS: Record<string, JobFailureKind> = {
  auth: 'auth',
  permission: 'permission',
  balance: 'balance',
};

/**
 * Maps the gateway client's decision to the job's next state (interface section 7):
 * retryable answers back off until the maximum attempts; uncertain outcomes (504, 524,
 * time-out after sending) fail as "uncertain" and are never resent automatically; auth,
 * permission and balance pause the whole queue. A 429 once rate limits persist (see
 * AdaptiveConcurrency.rateLimitPersists) fails nothing: the job waits, counted, and the queue
 * pauses, whatever attempts it has left.
 */
export function planAfterFailure(
  failure: GatewayFailure,
  attempts: number,
  policy: BackoffPolicy,
  now: number,
  random: () => number = Math.random,
  options: { rateLimitPersists?: boolean } = {},
): FailurePlan {
  const rateLimited = failure.kind === 'rate-limited';
  switch (failure.decision) {
    case 'retry-backoff':
    case 'retry-after': {
      if (rateLimited && options.rateLimitPersists) {
        const delay = retryDelayMs(policy, attempts, failure.retryAfterMs, random);
        return {
          to: 'retrying',
          nextAttemptAt: now + delay,
          rateLimited,
          pauseQueue: { reason: rateLimitPauseReason(failure), code: RATE_LIMIT_PAUSE_CODE },
        };
      }
      if (!mayRetry(policy, attempts)) {
        // an empty answer every time is still a failed generation, not a busy gateway
        const kind = failure.kind === 'empty-result' ? 'empty-result' : 'retries-exhausted';
        return { to: 'failed', failure: kind, rateLimited };
      }
      const delay = retryDelayMs(policy, attempts, failure.retryAfterMs, random);
      return { to: 'retrying', nextAttemptAt: now + delay, rateLimited };
    }
    case 'never-replay':
      return { to: 'failed', failure: 'uncertain', rateLimited };
    case 'pause-queue':
      return { to: 'queued', pauseReason: failure.message };
    case 'fail':
      return { to: 'failed', failure: failureKindOf(failure), rateLimited };
  }
}

function rateLimitPauseReason(failure: GatewayFailure): string {
  return (
    `The gateway keeps rate limiting: ${RATE_LIMIT_PAUSE_AFTER} requests in a row were ` +
    `refused (429) with only one sent at a time. The last answer: ${failure.message}`
  );
}

function failureKindOf(failure: GatewayFailure): JobFailureKind {
  if (failure.kind in PAUSE_KINDS) return PAUSE_KINDS[failure.kind] ?? 'rejected';
  switch (failure.kind) {
    case 'empty-result':
      return 'empty-result';
    case 'task-failed':
      return 'task-failed';
    case 'not-an-image':
      return 'not-an-image';
    case 'invalid-request':
    case 'not-found':
      return 'rejected';
    default:
      return 'internal';
  }
}
