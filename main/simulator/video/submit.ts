import { requireKey, type RequestContext } from '../context.ts';
import { workTimeoutError } from '../http.ts';
import type { VideoSubmission } from './submission.ts';
import type { VideoTaskStore } from './task-store.ts';
import { TASK_FAILURES, type VideoTask } from './tasks.ts';

/**
 * Creates a billed video task: pre-deducts seconds × price, then starts the task. Returns null
 * when the client left before the task was accepted (refunded). On 504/524 the task was
 * accepted and keeps running (charged when it succeeds); only the answer is lost.
 */
export async function submitVideoTask(
  ctx: RequestContext,
  store: VideoTaskStore,
  submission: VideoSubmission,
  endpoint: string,
): Promise<VideoTask | null> {
  const key = requireKey(ctx);
  const { spec, prompt, seconds, size } = submission;
  const entry = ctx.state.ledger.preDeduct(
    key,
    ctx.requestId,
    spec.id,
    endpoint,
    seconds * spec.pricePerSecond,
  );
  await ctx.work(0);
  if (ctx.signal.aborted) {
    ctx.state.ledger.refund(entry);
    return null;
  }
  const task: VideoTask = {
    id: `video_${ctx.requestId.replace(/^req_/, '')}`,
    ownerKey: key.config.key,
    model: spec.id,
    prompt,
    seconds,
    size,
    submittedAt: store.now(),
    durationMs: ctx.state.options.videoDurationMs,
    failure:
      ctx.fault === 'task-fail' || ctx.fault === 'task-quota' ? TASK_FAILURES[ctx.fault] : null,
    entry,
    billed: false,
    content: null,
  };
  store.add(task);
  if (ctx.fault === '504' || ctx.fault === '524') throw workTimeoutError(ctx.fault);
  return task;
}
