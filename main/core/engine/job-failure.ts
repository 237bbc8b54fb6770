import type { PauseKind } from '../../../shared/jobs/pause.ts';
import type { GatewayFailure } from '../../../shared/gateway/outcome.ts';
import { asFinal } from '../gateway/classify/retry-wording.ts';
import { INTERRUPTED_MESSAGE } from '../store/recovery.ts';
import type { Job } from '../store/rows.ts';
import { planAfterFailure, type FailurePlan } from './attempt-plan.ts';
import { ENGINE_STOPPING, type EngineContext } from './context.ts';

const ATTEMPT_OUTCOME = {
  retrying: 'retry',
  failed: 'failed',
  queued: 'pause-queue',
} as const;

/**
 * Records a failed attempt and moves the job on, in one transaction: back off and retry,
 * fail (as "uncertain" when the work may have been charged), or hand the job back and pause
 * the queue. An aborted request is decided when the write runs, not when the answer came, so
 * a cancel in between is never lost: a canceled job is canceled; one stopped with the engine
 * is handed back if its request never left, or failed as uncertain if it did (as a crash).
 * `sentInWindow`: the pool's window when the request left (see AdaptiveConcurrency.window).
 */
export async function settleFailure(
  ctx: EngineContext,
  job: Job,
  attemptId: number,
  failure: GatewayFailure,
  signal: AbortSignal,
  sentInWindow?: number,
): Promise<void> {
  const now = ctx.now();
  const recorded = {
    now,
    httpStatus: failure.status,
    requestId: failure.requestIds.requestId,
    upstreamRequestId: failure.requestIds.upstreamRequestId,
    errorCode: failure.code,
    errorMessage: failure.message,
    decision: failure.decision,
    retryAfterMs: failure.retryAfterMs,
  };
  // Before the commit: the claim that ends this commit must see the smaller pool.
  const rateLimited = failure.kind === 'rate-limited' && !signal.aborted;
  if (rateLimited) ctx.aimd.onRateLimited(now, sentInWindow);
  const planned = planAfterFailure(failure, job.tries, ctx.backoff, now, ctx.random, {
    rateLimitPersists: rateLimited && ctx.aimd.rateLimitPersists,
  });
  if (rateLimited && planned.to === 'retrying') ctx.aimd.holdAfterRefusal(planned.nextAttemptAt);
  let plan: FailurePlan | null = null;
  let pausedHere = false;
  await ctx.commit(() => {
    if (signal.aborted) {
      plan = null;
      return settleAborted(ctx, job, attemptId, failure, signal, recorded);
    }
    plan = planned;
    const uncertain = plan.to === 'failed' && plan.failure === 'uncertain';
    // A retryable failure whose tries ran out: its message must not promise another.
    const message =
      plan.to === 'failed' && retryable(failure)
        ? asFinal(failure.message, job.tries)
        : failure.message;
    ctx.store.attempts.finish(attemptId, {
      ...recorded,
      errorMessage: message,
      outcome: uncertain ? 'uncertain' : ATTEMPT_OUTCOME[plan.to],
    });
    switch (plan.to) {
      case 'retrying':
        ctx.store.jobs.scheduleRetry(job.id, {
          nextAttemptAt: plan.nextAttemptAt,
          now,
          errorCode: failure.code,
          errorMessage: failure.message,
        });
        // Paused in this very commit, as below; the job keeps its attempts counted.
        if (plan.pauseQueue && !ctx.store.queue.get().paused) {
          ctx.store.queue.pause(plan.pauseQueue.reason, now, plan.pauseQueue.code, 'rate-limit');
          pausedHere = true;
        }
        break;
      case 'failed':
        ctx.store.jobs.fail(job.id, {
          kind: plan.failure,
          now,
          errorCode: failure.code ?? failure.kind,
          errorMessage: message,
        });
        break;
      case 'queued':
        // the gateway's words stay on the job: a video model the key may not use says so there
        ctx.store.jobs.handBack(job.id, now, plan.pauseReason, {
          code: failure.code ?? failure.kind,
          message: failure.message,
        });
        // Paused in this very commit: a claim later in it must not take the job straight back.
        if (!ctx.store.queue.get().paused) {
          ctx.store.queue.pause(
            plan.pauseReason,
            now,
            failure.code ?? failure.kind,
            queuePauseKind(failure.kind),
          );
          pausedHere = true;
        }
        break;
    }
  });
  const settled = plan as FailurePlan | null;
  if (!settled) return;
  if (settled.to === 'retrying') ctx.wakeAt(settled.nextAttemptAt);
  if (pausedHere && settled.to === 'retrying' && settled.pauseQueue) {
    ctx.queuePaused(settled.pauseQueue.reason, settled.pauseQueue.code, 'rate-limit');
  }
  if (pausedHere && settled.to === 'queued') {
    ctx.queuePaused(
      settled.pauseReason,
      failure.code ?? failure.kind,
      queuePauseKind(failure.kind),
    );
  }
}

function retryable(failure: GatewayFailure): boolean {
  return failure.decision === 'retry-backoff' || failure.decision === 'retry-after';
}

function settleAborted(
  ctx: EngineContext,
  job: Job,
  attemptId: number,
  failure: GatewayFailure,
  signal: AbortSignal,
  recorded: { now: number } & Record<string, unknown>,
): void {
  const { now } = recorded;
  if (signal.reason !== ENGINE_STOPPING) {
    ctx.store.attempts.finish(attemptId, { ...recorded, outcome: 'canceled' });
    ctx.store.jobs.cancel(job.id, now, 'canceled while running');
    return;
  }
  ctx.store.attempts.finish(attemptId, { ...recorded, outcome: 'interrupted' });
  if (!failure.sent) {
    ctx.store.jobs.handBack(job.id, now, 'Atelier stopped before the request was sent.');
    return;
  }
  ctx.store.jobs.fail(job.id, {
    kind: 'uncertain',
    now,
    errorCode: 'interrupted',
    errorMessage: INTERRUPTED_MESSAGE,
    reason: 'stopped while in flight',
  });
}

/** A failure that stops the whole queue is about the key, its permissions or its balance. */
function queuePauseKind(kind: string): PauseKind {
  return kind === 'auth' || kind === 'permission' || kind === 'balance' ? kind : 'other';
}
