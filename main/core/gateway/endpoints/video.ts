import type { Catalogue } from '../../../../shared/gateway/catalogue.ts';
import type { Download, Outcome, VideoTask } from '../../../../shared/gateway/outcome.ts';
import type { VideoRequest } from '../../../../shared/gateway/requests.ts';
import type { VideoSubmitBody } from '../../../../shared/gateway/wire/video.ts';
import type { GatewayContext } from '../context.ts';
import { callJson, type BodyReading } from '../http/call-json.ts';
import type { CallOptions } from '../http/exchange.ts';
import { readVideoTask, type VideoApi } from '../read/video-task.ts';
import { download } from './download.ts';
import { refuse } from './refuse.ts';
import { videoRequestProblems } from '../build/validate-video.ts';

const SUBMIT_PATH: Record<VideoApi, string> = {
  videos: '/videos',
  'video-generations': '/video/generations',
};

function readTask(api: VideoApi, failOnFailure: boolean) {
  return (body: unknown): BodyReading<VideoTask> => {
    const reading = readVideoTask(body, api);
    if (!reading.ok) return { kind: 'bad-body', status: 200, detail: reading.detail };
    const { task } = reading;
    if (failOnFailure && task.state === 'FAILURE') {
      return { kind: 'task', code: task.errorCode, failReason: task.failReason };
    }
    return { ok: true, value: task };
  };
}

/** Where a model's tasks are submitted and polled: /v1/videos unless its document says otherwise. */
export function videoApiOf(catalogue: Catalogue, model: string): VideoApi {
  const entry = catalogue.lookup(model);
  return entry.kind === 'video' ? entry.submitPath : 'videos';
}

/**
 * Submits a video task (POST /v1/videos, or /v1/video/generations where the model's document
 * requires it). Video is controlled-access: a 403 here pauses like any permission error.
 */
export async function submitVideo(
  context: GatewayContext,
  request: VideoRequest,
  options: CallOptions = {},
): Promise<Outcome<VideoTask>> {
  const problems = videoRequestProblems(context.catalogue, request);
  if (problems.length) return refuse(context, `video with ${request.model}`, problems);
  const api = videoApiOf(context.catalogue, request.model);
  const json: VideoSubmitBody = {
    ...request.extra,
    model: request.model,
    prompt: request.prompt,
    ...(request.seconds !== undefined ? { seconds: request.seconds } : {}),
    ...(request.size !== undefined ? { size: request.size } : {}),
  };
  return callJson(
    context,
    { method: 'POST', path: SUBMIT_PATH[api], json },
    options,
    readTask(api, true),
  );
}

/**
 * The task's state (GET /v1/videos/{id}, or /v1/video/generations/{id} for a task submitted
 * there: pass its `api`, see videoApiOf). A task that ended in FAILURE comes back as a
 * failure outcome (refunded by the platform; interface 1), others as the task.
 */
export function getVideo(
  context: GatewayContext,
  task: { id: string; api?: VideoApi },
  options: CallOptions = {},
): Promise<Outcome<VideoTask>> {
  const api = task.api ?? 'videos';
  const path = `${SUBMIT_PATH[api]}/${encodeURIComponent(task.id)}`;
  return callJson(context, { method: 'GET', path }, options, readTask(api, true));
}

/** GET /v1/videos/{id}/content: the finished video as a stream, never buffered whole. */
export function downloadVideoContent(
  context: GatewayContext,
  taskId: string,
  options: CallOptions & { variant?: 'video' | 'thumbnail' } = {},
): Promise<Outcome<Download>> {
  const query = options.variant && options.variant !== 'video' ? `?variant=${options.variant}` : '';
  return download(
    context,
    { path: `/videos/${encodeURIComponent(taskId)}/content${query}` },
    options,
  );
}
