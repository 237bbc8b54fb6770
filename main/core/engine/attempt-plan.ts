import type { GatewayFailure } from '../../../shared/gateway/outcome.ts';
import type { FailureKind as JobFailureKind } from '../../../shared/jobs/outcomes.ts';
import { mayRetry, retryDelayMs, type BackoffPolicy } from './backoff.ts';

/** What the engine does with a job after a failed attempt: pure, so every rule is table-tested. */
export type FailurePlan =
  | { to: 'retrying'; nextAttemptAt: number; rateLimited: boolean }
  | { to: 'failed'; failure: JobFailureKind; rateLimited: boolean }
  /** Handed back unsent work: the queue pauses, the job waits for resume. */
  | { to: 'queued'; pauseReason: string };

const PAUSE_KINDS: Record<string, JobFailureKind> = {
  auth: 'auth',
  permission: 'permission',
  balance: 'balance',
};

/**
 * Maps the gateway client's decision to the job's next state (interface section 7):
 * retryable answers back off until the maximum attempts; uncertain outcomes (504, 524,
 * time-out after sending) fail as "uncertain" and are never resent automatically; auth,
 * permission and balance pause the whole queue.
 */
export function planAfterFailure(
  failure: GatewayFailure,
  attempts: number,
  policy: BackoffPolicy,
  now: number,
  random: () => number = Math.random,
): FailurePlan {
  const rateLimited = failure.kind === 'rate-limited';
  switch (failure.decision) {
    case 'retry-backoff':
    case 'retry-after': {
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
