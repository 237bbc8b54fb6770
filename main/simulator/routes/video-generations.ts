import { requireKey, type Route } from '../context.ts';
import { sendJson } from '../http.ts';
import { readVideoSubmission } from '../video/submission.ts';
import { submitVideoTask } from '../video/submit.ts';
import type { VideoTaskStore } from '../video/task-store.ts';
import { taskEnvelope } from '../video/views.ts';

/**
 * The task-style video API some models document: POST /v1/video/generations submits,
 * GET /v1/video/generations/{task_id} polls. Both answer `{code, message, data}`, data being
 * {task_id, status: IN_PROGRESS|SUCCESS|FAILURE, progress: '40%', fail_reason, url}.
 */
export function videoGenerationRoutes(store: VideoTaskStore): Route[] {
  return [
    {
      method: 'POST',
      pattern: /^\/v1\/video\/generations$/,
      auth: true,
      faults: 'work',
      errors: 'task',
      handler: async (ctx) => {
        const submission = await readVideoSubmission(ctx, 'task');
        const task = await submitVideoTask(ctx, store, submission, '/v1/video/generations');
        if (!task) return;
        const body = taskEnvelope(task, store.snapshot(task), ctx.state.baseUrl);
        if (!(await sendJson(ctx, 200, body))) store.discard(task);
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/video\/generations\/([^/]+)$/,
      auth: true,
      faults: null,
      errors: 'task',
      handler: async (ctx) => {
        const task = store.get(ctx.params[0] ?? '', requireKey(ctx).config.key);
        await sendJson(ctx, 200, taskEnvelope(task, store.snapshot(task), ctx.state.baseUrl));
      },
    },
  ];
}
