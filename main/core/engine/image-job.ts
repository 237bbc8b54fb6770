import type { ImageRequest } from '../../../shared/gateway/requests.ts';
import type { ImageResult, Outcome } from '../../../shared/gateway/outcome.ts';
import { editRequestFor } from '../edits/edit-request.ts';
import { EditInputError, EditInputFiles } from '../edits/input-files.ts';
import { refuse } from '../gateway/endpoints/refuse.ts';
import type { JobEdit } from '../store/edit-repository.ts';
import type { Job } from '../store/rows.ts';
import { storeDiskProblem } from '../store/store-errors.ts';
import type { EngineContext } from './context.ts';
import { nameForInsert, prepareDownload, type PreparedDownload } from './download.ts';
import { imageRequestFor } from './job-request.ts';
import { settleFailure } from './job-failure.ts';
import { checkImages, notAnImageFailure } from './result-check.ts';

/**
 * One attempt of an image job that is already `running`, its attempt opened (both committed
 * before this is called). On success the image rows (URL and/or bytes) and the job's success
 * are written in one transaction: a paid result is in the database before anything is
 * downloaded. Images that came as bytes go straight to the download pool when it has room.
 */
export async function runImageJob(
  ctx: EngineContext,
  job: Job,
  signal: AbortSignal,
  attemptId: number,
): Promise<void> {
  const window = ctx.aimd.window;
  const request = imageRequestFor(
    job,
    ctx.responseFormat ? { responseFormat: ctx.responseFormat } : {},
  );
  const edit = ctx.store.edits.ofJob(job.id);
  const outcome = edit
    ? await sendEdit(ctx, request, edit, signal)
    : await ctx.client.generateImage(request, { signal });
  if (outcome.ok || outcome.sent) ctx.stats.requestsSent++;
  if (!outcome.ok) return settleFailure(ctx, job, attemptId, outcome, signal, window);
  // Decoded once: checked, stored as the payload, and written from memory when handed over.
  const { kept, refused } = checkImages(outcome.value.images, ctx.limits.maxImagePixels);
  if (kept.length === 0) {
    const failure = notAnImageFailure(ctx.client.context, outcome, refused);
    return settleFailure(ctx, job, attemptId, failure, signal, window);
  }
  const images = kept.map(({ image }) => image);
  const bytes = kept.map((k) => k.bytes);
  const partial = outcome.value.partial !== null || refused.length > 0;
  const now = ctx.now();
  const withBytes = bytes.every((b) => b?.length);
  let reserved = 0;
  let handedOver: PreparedDownload[] = [];
  try {
    await ctx.commit(() => {
      ctx.store.attempts.finish(attemptId, {
        now,
        outcome: partial ? 'partial' : 'succeeded',
        httpStatus: outcome.status,
        requestId: outcome.requestIds.requestId,
        upstreamRequestId: outcome.requestIds.upstreamRequestId,
      });
      if (reserved === 0 && withBytes && ctx.reserveDownloads(images.length)) {
        reserved = images.length;
      }
      const lookup = { job, batch: ctx.batchOf(job.batchId) };
      const stored = ctx.store.images.addResults(
        job.id,
        images.map((image, i) => {
          const idx = job.imageOffset + i + 1;
          return {
            idx,
            url: image.url,
            b64: bytes[i] ?? null,
            revisedPrompt: image.revisedPrompt,
            seed: image.seed,
            // handed over: named in the same insert
            relPath: reserved > 0 ? nameForInsert(ctx, lookup, idx, bytes[i]!) : null,
          };
        }),
        now,
        { downloading: reserved > 0 },
      );
      const succeeded = ctx.store.jobs.succeed(job.id, {
        returnedN: images.length,
        now,
        ...(partial ? { reason: partialReason(images.length, job.n, refused) } : {}),
      });
      if (reserved > 0) {
        handedOver = stored
          .map((image, i) => prepareDownload(ctx, image, { ...lookup, job: succeeded }, bytes[i]))
          .filter((download) => download !== null);
      }
    });
  } catch (error) {
    ctx.releaseDownloads(reserved);
    if (!storeDiskProblem(error)) throw error;
    // The data folder's disk refused the answer: it is paid for, so it is kept aside instead.
    return ctx.keepUnrecorded(
      {
        version: 1,
        jobId: job.id,
        attemptId,
        batchDir: ctx.batchOf(job.batchId).dirName,
        prompt: job.prompt,
        receivedAt: now,
        httpStatus: outcome.status,
        requestId: outcome.requestIds.requestId,
        upstreamRequestId: outcome.requestIds.upstreamRequestId,
        partial: Boolean(partial),
        images: images.map((image) => ({
          url: image.url,
          b64: image.b64Json,
          revisedPrompt: image.revisedPrompt,
          seed: image.seed,
        })),
      },
      error,
    );
  }
  ctx.aimd.onSuccess();
  ctx.startDownloads(handedOver, reserved);
}

/** "partial: 1 of 2 images", and why the others are missing when they came as no image. */
function partialReason(returned: number, asked: number, refused: readonly string[]): string {
  const reason = `partial: ${returned} of ${asked} images`;
  return refused.length > 0 ? `${reason}; ${refused.join('; ')}` : reason;
}

/**
 * An edit: the picture and mask read back from the data folder, the very bytes that were
 * checked. One missing or changed on disk fails the job before anything is sent.
 */
async function sendEdit(
  ctx: EngineContext,
  request: ImageRequest,
  edit: JobEdit,
  signal: AbortSignal,
): Promise<Outcome<ImageResult>> {
  let edited;
  try {
    edited = await editRequestFor(EditInputFiles.of(ctx.store), request, edit);
  } catch (error) {
    if (!(error instanceof EditInputError)) throw error;
    return refuse(ctx.client.context, `edit of ${edit.sourceLabel}`, [error.message]);
  }
  return ctx.client.editImage(edited, { signal });
}
