import type { Job } from '../store/rows.ts';
import type { EngineContext } from './context.ts';
import { imageRequestFor } from './job-request.ts';
import { settleFailure } from './job-failure.ts';

/**
 * One attempt of an image job that is already `running`, its attempt opened (both committed
 * before this is called). On success the image rows (URL and/or bytes) and the job's success are written in one
 * transaction: a paid result is in the database before anything is downloaded.
 */
export async function runImageJob(
  ctx: EngineContext,
  job: Job,
  signal: AbortSignal,
  attemptId: number,
): Promise<void> {
  const outcome = await ctx.client.generateImage(
    imageRequestFor(job, ctx.responseFormat ? { responseFormat: ctx.responseFormat } : {}),
    { signal },
  );
  if (outcome.ok || outcome.sent) ctx.stats.requestsSent++;
  if (!outcome.ok) return settleFailure(ctx, job, attemptId, outcome, signal);
  const { images, partial } = outcome.value;
  const now = ctx.now();
  await ctx.commit(() => {
    ctx.store.attempts.finish(attemptId, {
      now,
      outcome: partial ? 'partial' : 'succeeded',
      httpStatus: outcome.status,
      requestId: outcome.requestIds.requestId,
      upstreamRequestId: outcome.requestIds.upstreamRequestId,
    });
    ctx.store.images.addResults(
      job.id,
      images.map((image, i) => ({
        idx: job.imageOffset + i + 1,
        url: image.url,
        b64: image.b64Json,
        revisedPrompt: image.revisedPrompt,
      })),
      now,
    );
    ctx.store.jobs.succeed(job.id, {
      returnedN: images.length,
      now,
      ...(partial ? { reason: `partial: ${images.length} of ${job.n} images` } : {}),
    });
  });
  ctx.aimd.onSuccess();
}
