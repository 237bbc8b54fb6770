import type { GatewayFailure } from '../../../shared/gateway/outcome.ts';
import type { Job } from '../store/rows.ts';
import { planAfterFailure } from './attempt-plan.ts';
import type { EngineContext } from './context.ts';

const ATTEMPT_OUTCOME = {
  retrying: 'retry',
  failed: 'failed',
  queued: 'pause-queue',
} as const;

/**
 * Records a failed attempt and moves the job on, in one transaction: back off and retry,
 * fail (as "uncertain" when the work may have been charged), or hand the job back and pause
 * the queue. A canceled request cancels the job.
 */
export async function settleFailure(
  ctx: EngineContext,
  job: Job,
  attemptId: number,
  failure: GatewayFailure,
  canceled: boolean,
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
  if (canceled) {
    await ctx.commit(() => {
      ctx.store.attempts.finish(attemptId, { ...recorded, outcome: 'canceled' });
      ctx.store.jobs.cancel(job.id, now, 'canceled while running');
    });
    return;
  }
  const plan = planAfterFailure(failure, job.tries, ctx.backoff, now, ctx.random);
  const uncertain = plan.to === 'failed' && plan.failure === 'uncertain';
  await ctx.commit(() => {
    ctx.store.attempts.finish(attemptId, {
      ...recorded,
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
        break;
      case 'failed':
        ctx.store.jobs.fail(job.id, {
          kind: plan.failure,
          now,
          errorCode: failure.code ?? failure.kind,
          errorMessage: failure.message,
        });
        break;
      case 'queued':
        ctx.store.jobs.handBack(job.id, now, plan.pauseReason);
        break;
    }
  });
  if (plan.to === 'retrying') ctx.wakeAt(plan.nextAttemptAt);
  if (plan.to === 'queued') ctx.pauseQueue(plan.pauseReason, failure.code ?? failure.kind);
  if (plan.to !== 'queued' && plan.rateLimited) ctx.aimd.onRateLimited(now);
}
