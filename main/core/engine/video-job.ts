import { setTimeout as delay } from 'node:timers/promises';
import { DEFAULT_VIDEO_USUAL_SECONDS } from '../../../shared/gateway/catalogue.ts';
import { apiRoot } from '../../../shared/gateway/profile.ts';
import { videoApiOf } from '../gateway/endpoints/video.ts';
import type { Job } from '../store/rows.ts';
import { ENGINE_STOPPING, type EngineContext } from './context.ts';
import { videoRequestFor } from './job-request.ts';
import { asFinal } from '../gateway/classify/retry-wording.ts';
import { settleFailure } from './job-failure.ts';

/** Consecutive failed status checks after which a submitted task is given up as uncertain. */
const MAX_POLL_FAILURES = 30;
/** The longest wait between two checks of an overdue task. */
const OVERDUE_MAX_POLL_MS = 60_000;

/**
 * The abort reason Engine.stop gives: a submitted task (paid for) is not canceled but left
 * `running` with its id, and the next start polls it again, as after a crash.
 */

/**
 * A video job: submit the task (once: a job that already has a task id is only polled, also
 * after a crash), poll with a growing interval until the platform says SUCCESS or FAILURE,
 * then store the content link as the job's one result for the download pool to fetch.
 */
export async function runVideoJob(
  ctx: EngineContext,
  job: Job,
  signal: AbortSignal,
  openAttempt: number | null,
): Promise<void> {
  let taskId = job.videoTaskId;
  if (!taskId) {
    const attemptId = openAttempt ?? ctx.store.attempts.start(job.id, ctx.now());
    const window = ctx.aimd.window;
    const submitted = await ctx.client.submitVideo(videoRequestFor(job), { signal });
    if (submitted.ok || submitted.sent) ctx.stats.requestsSent++;
    if (!submitted.ok) {
      return settleFailure(ctx, job, attemptId, submitted, signal, window);
    }
    ctx.aimd.onSuccess();
    taskId = submitted.value.id;
    const now = ctx.now();
    ctx.store.transaction(() => {
      ctx.store.attempts.finish(attemptId, {
        now,
        outcome: 'succeeded',
        httpStatus: submitted.status,
        requestId: submitted.requestIds.requestId,
        upstreamRequestId: submitted.requestIds.upstreamRequestId,
      });
      ctx.store.jobs.setVideoTask(job.id, {
        taskId: taskId!,
        status: submitted.value.state,
        platformStatus: submitted.value.platformStatus,
        ...(submitted.value.progress === null ? {} : { progress: `${submitted.value.progress}%` }),
        now,
      });
    });
    ctx.videoChanged(job);
  }

  ctx.pollingVideos.add(job.id);
  try {
    await pollUntilDone(ctx, job, taskId, signal);
  } finally {
    ctx.pollingVideos.delete(job.id);
  }
}

/**
 * When a task is past its usual time: its model's `usualSeconds`, or 15 minutes. Counted from
 * the submission, which a poll resumed after a restart reads back from the job.
 */
function overdueAfter(ctx: EngineContext, job: Job): number {
  const entry = ctx.client.context.catalogue.lookup(job.model);
  const usual =
    (entry.kind === 'video' ? entry.usualSeconds : undefined) ?? DEFAULT_VIDEO_USUAL_SECONDS;
  const submittedAt = job.videoSubmittedAt ?? job.startedAt ?? ctx.now();
  return submittedAt + usual * 1000;
}

/** Asks for the task's state, less and less often, until it ends (or the job is stopped). */
async function pollUntilDone(
  ctx: EngineContext,
  job: Job,
  taskId: string,
  signal: AbortSignal,
): Promise<void> {
  let pollDelay = ctx.videoPoll.initialMs;
  let failures = 0;
  // polled where it was submitted (the model's document may name /v1/video/generations)
  const task = { id: taskId, api: videoApiOf(ctx.client.context.catalogue, job.model) };
  const overdueAt = overdueAfter(ctx, ctx.store.jobs.get(job.id) ?? job);
  for (;;) {
    // An abort ends the wait early; the check below sees it.
    await delay(pollDelay, undefined, { signal }).catch(() => undefined);
    if (signal.aborted) return stopPolling(ctx, job, signal, ctx.now());
    // past its usual time the task is still checked, less often: it may yet finish, and it is
    // paid for, so it is never submitted again without the person's "retry anyway"
    const overdue = ctx.now() >= overdueAt;
    const longest = overdue
      ? Math.max(ctx.videoPoll.maxMs, ctx.videoPoll.overdueMaxMs ?? OVERDUE_MAX_POLL_MS)
      : ctx.videoPoll.maxMs;
    pollDelay = Math.min(longest, Math.round(pollDelay * 1.5));
    const status = await ctx.client.getVideo(task, { signal });
    const now = ctx.now();
    if (status.ok) {
      failures = 0;
      const task = status.value;
      ctx.store.jobs.setVideoTask(job.id, {
        taskId,
        status: task.state,
        platformStatus: task.platformStatus,
        ...(task.progress === null ? {} : { progress: `${task.progress}%` }),
        checkRequestId: status.requestIds.requestId ?? status.requestIds.upstreamRequestId,
        overdue: now >= overdueAt,
        now,
      });
      ctx.videoChanged(job);
      if (task.state !== 'SUCCESS') continue;
      ctx.store.transaction(() => {
        ctx.store.images.addResults(
          job.id,
          [
            {
              idx: 1,
              url: `${apiRoot(ctx.client.context.profile)}/videos/${encodeURIComponent(taskId)}/content`,
            },
          ],
          now,
        );
        ctx.store.jobs.succeed(job.id, { returnedN: 1, now });
      });
      return;
    }
    if (signal.aborted) return stopPolling(ctx, job, signal, now);
    // The task was read and it failed (whatever code it carries, e.g. a quota one): final.
    const readFine =
      status.status !== null &&
      status.status >= 200 &&
      status.status < 300 &&
      status.kind !== 'bad-response';
    if (status.kind === 'task-failed' || readFine) {
      ctx.store.transaction(() => {
        // the platform's last word on the task, as a poll that found it running would record
        if (status.kind === 'task-failed') {
          ctx.store.jobs.setVideoTask(job.id, {
            taskId,
            status: 'FAILURE',
            checkRequestId: status.requestIds.requestId ?? status.requestIds.upstreamRequestId,
            now,
          });
        }
        ctx.store.jobs.fail(job.id, {
          kind: 'task-failed',
          now,
          errorCode: status.code ?? 'task_failed',
          errorMessage: status.message,
        });
      });
      return;
    }
    // The task was submitted (and may be charged): never resubmit, keep asking.
    if (++failures >= MAX_POLL_FAILURES) {
      ctx.store.jobs.fail(job.id, {
        kind: 'uncertain',
        now,
        errorCode: status.code ?? status.kind,
        // (the last check's message promised another check: there will be none)
        errorMessage: `The video task ${taskId} could not be checked ${failures} times in a row (${asFinal(status.message, failures)}). It may still finish on the gateway: check the task id there.`,
      });
      return;
    }
  }
}

/** Aborted: canceled by the person, or left running for the next start when the engine stops. */
function stopPolling(ctx: EngineContext, job: Job, signal: AbortSignal, now: number): void {
  if (signal.reason === ENGINE_STOPPING) return;
  ctx.store.jobs.cancel(job.id, now, 'canceled while the video task ran');
}
