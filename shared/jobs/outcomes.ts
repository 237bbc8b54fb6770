/**
 * Why a job ended `failed`, as the engine records it and the UI and CLI filter on it.
 * - uncertain: the work may have been done and charged (504, 524, time-out after sending,
 *   crash while running); never resent without the person's "retry anyway".
 * - rejected: parameters refused (400/422) or refused by the client before sending.
 * - auth / permission / balance: 401, 403, insufficient_user_quota,
 *   pre_consume_token_quota_failed; these also pause the queue.
 * - empty-result: a 200 with an empty `data` array.
 * - retries-exhausted: retryable answers (429, 5xx, network) until the maximum attempts.
 * - task-failed: a video task that ended FAILURE on the platform.
 * - not-an-image: the gateway answered success, but with something that is not a usable image
 *   (text, an error page, a header beyond the pixel limit); never resent without "retry".
 * - internal: a bug or an unexpected answer; the message says more.
 */
export const FAILURE_KINDS = [
  'uncertain',
  'rejected',
  'auth',
  'permission',
  'balance',
  'empty-result',
  'retries-exhausted',
  'task-failed',
  'not-an-image',
  'internal',
] as const;

export type FailureKind = (typeof FAILURE_KINDS)[number];

export function isFailureKind(value: unknown): value is FailureKind {
  return typeof value === 'string' && (FAILURE_KINDS as readonly string[]).includes(value);
}

/** Resending may charge twice: the person must choose "retry anyway", never "retry failed". */
export function needsRetryAnyway(kind: FailureKind): boolean {
  return kind === 'uncertain';
}

/** What happened to one request sent (one row of the attempts log). */
export const ATTEMPT_OUTCOMES = [
  'succeeded',
  'partial',
  'retry',
  'failed',
  'uncertain',
  'pause-queue',
  'canceled',
  'interrupted',
] as const;

export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];
