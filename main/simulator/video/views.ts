import type { TaskSnapshot, VideoTask } from './tasks.ts';

const seconds = (ms: number) => Math.floor(ms / 1000);
/** How long finished content stays downloadable, as reported in `expires_at`. */
const CONTENT_TTL_S = 3600;

/**
 * GET /v1/videos/{id}: the OpenAI `video` object the `openai` client expects (status,
 * progress 0–100, error…), plus the platform's own task fields: `task_id`, `task_status`
 * (IN_PROGRESS | SUCCESS | FAILURE) and `fail_reason`.
 */
export function videoObject(task: VideoTask, snap: TaskSnapshot) {
  const completedAt = snap.endedAt === null ? null : seconds(snap.endedAt);
  return {
    id: task.id,
    object: 'video',
    model: task.model,
    status: snap.phase,
    progress: snap.progress,
    created_at: seconds(task.submittedAt),
    completed_at: completedAt,
    expires_at:
      snap.phase === 'completed' && completedAt !== null ? completedAt + CONTENT_TTL_S : null,
    prompt: task.prompt,
    seconds: String(task.seconds),
    size: task.size,
    remixed_from_video_id: null,
    error: snap.failReason ? { code: failCode(task), message: snap.failReason } : null,
    task_id: task.id,
    task_status: snap.status,
    fail_reason: snap.failReason,
  };
}

/** The task record inside the task-style envelope (and inside task errors as `data`). */
export function taskData(task: VideoTask, snap: TaskSnapshot, baseUrl: string) {
  return {
    task_id: task.id,
    status: snap.status,
    progress: `${snap.progress}%`,
    fail_reason: snap.failReason,
    url: snap.status === 'SUCCESS' ? `${baseUrl}/v1/videos/${task.id}/content` : null,
    model: task.model,
    prompt: task.prompt,
    seconds: task.seconds,
    size: task.size,
    submit_time: seconds(task.submittedAt),
    finish_time: snap.endedAt === null ? null : seconds(snap.endedAt),
  };
}

/**
 * POST / GET /v1/video/generations: `{code, message, data}`, as task-style platforms answer. A
 * task in FAILURE is a task error (interface 7 rule 2): its code and fail reason at top level.
 */
export function taskEnvelope(task: VideoTask, snap: TaskSnapshot, baseUrl: string) {
  const data = taskData(task, snap, baseUrl);
  return snap.status === 'FAILURE'
    ? { code: failCode(task), message: snap.failReason ?? '', data }
    : { code: 'success', message: '', data };
}

function failCode(task: VideoTask): string {
  return task.failure?.code ?? 'video_generation_failed';
}
