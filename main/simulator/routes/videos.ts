import { requireKey, type GatewayState, type RequestContext, type Route } from '../context.ts';
import { ApiError, badRequest, sendFile, sendJson, sendTaskError } from '../http.ts';
import { renderThumbnail } from '../video/clip.ts';
import { readVideoSubmission } from '../video/submission.ts';
import { submitVideoTask } from '../video/submit.ts';
import { VideoTaskStore } from '../video/task-store.ts';
import { taskData, videoObject } from '../video/views.ts';
import { videoGenerationRoutes } from './video-generations.ts';

/** Answers a content request for a task that has no content (yet), with the task as data. */
function noContent(ctx: RequestContext, store: VideoTaskStore, id: string): never {
  const task = store.get(id, requireKey(ctx).config.key);
  const snap = store.snapshot(task);
  const data = taskData(task, snap, ctx.state.baseUrl);
  if (snap.status === 'FAILURE') {
    throw new ApiError(
      404,
      'invalid_request_error',
      'video_failed',
      `Video ${id} failed and has no content: ${snap.failReason ?? 'unknown reason'}`,
      { data },
    );
  }
  throw new ApiError(
    404,
    'invalid_request_error',
    'video_not_ready',
    `Video ${id} is not ready (${snap.phase}, ${snap.progress}%). Poll GET /v1/videos/${id} until its status is "completed".`,
    { data },
  );
}

/**
 * The OpenAI-style video API: POST /v1/videos submits a task, GET /v1/videos/{id} reports it,
 * GET /v1/videos/{id}/content downloads the MP4. Also mounts the task-style
 * /v1/video/generations API on the same tasks. Errors use the task shape (interface 7 rule 2).
 */
export function videoRoutes(state: GatewayState): Route[] {
  const store = new VideoTaskStore(state.ledger, state.options.now);
  return [
    {
      method: 'POST',
      pattern: /^\/v1\/videos$/,
      auth: true,
      faults: 'work',
      errors: 'task',
      handler: async (ctx) => {
        const submission = await readVideoSubmission(ctx, 'videos');
        const task = await submitVideoTask(ctx, store, submission, '/v1/videos');
        if (!task) return;
        const delivered = await sendJson(ctx, 200, videoObject(task, store.snapshot(task)));
        if (!delivered) store.discard(task);
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/videos\/([^/]+)$/,
      auth: true,
      faults: null,
      errors: 'task',
      handler: async (ctx) => {
        const task = store.get(ctx.params[0] ?? '', requireKey(ctx).config.key);
        await sendJson(ctx, 200, videoObject(task, store.snapshot(task)));
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/videos\/([^/]+)\/content$/,
      auth: true,
      faults: 'download',
      errors: 'task',
      handler: async (ctx) => {
        const id = ctx.params[0] ?? '';
        const task = store.get(id, requireKey(ctx).config.key);
        if (store.snapshot(task).status !== 'SUCCESS') noContent(ctx, store, id);
        const variant = ctx.url.searchParams.get('variant') ?? 'video';
        if (variant === 'video') {
          await sendFile(ctx, await store.content(task), 'video/mp4', sendTaskError);
        } else if (variant === 'thumbnail') {
          const jpeg = await renderThumbnail(task.prompt, task.size, task.seconds);
          await sendFile(ctx, jpeg, 'image/jpeg', sendTaskError);
        } else {
          throw badRequest(
            'invalid_variant',
            `"variant" must be "video" or "thumbnail"; the simulator has no "${variant}".`,
            'variant',
          );
        }
      },
    },
    ...videoGenerationRoutes(store),
  ];
}
