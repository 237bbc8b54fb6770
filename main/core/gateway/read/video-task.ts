import type { TaskState, VideoTask } from '../../../../shared/gateway/outcome.ts';
import { VideoTaskBodySchema } from '../../../../shared/gateway/wire/video.ts';

export type VideoApi = 'videos' | 'video-generations';

/** Platform states (interface 3) and the OpenAI video phases, spelled in either case. */
const STATES: Record<string, TaskState> = {
  success: 'SUCCESS',
  succeeded: 'SUCCESS',
  completed: 'SUCCESS',
  failure: 'FAILURE',
  failed: 'FAILURE',
  in_progress: 'IN_PROGRESS',
  processing: 'IN_PROGRESS',
  running: 'IN_PROGRESS',
  queued: 'QUEUED',
  pending: 'QUEUED',
  submitted: 'QUEUED',
  not_start: 'QUEUED',
};

const isBag = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A video task, from the OpenAI `video` object or the task-style envelope `{code, message,
 * data: {task_id, status, progress: '40%', fail_reason}}`. The platform's own state
 * (`task_status`) wins over the OpenAI phase when both are there.
 */
export function readVideoTask(
  body: unknown,
  api: VideoApi,
): { ok: true; task: VideoTask } | { ok: false; detail: string } {
  const envelope = isBag(body) && isBag(body.data) && !('id' in body) ? body : null;
  const inner = envelope ? envelope.data : body;
  const parsed = VideoTaskBodySchema.safeParse(inner);
  if (!parsed.success) return { ok: false, detail: 'it is not a video task record' };
  const record = parsed.data;
  const id = record.id ?? record.task_id;
  if (!id) return { ok: false, detail: 'the task record has no id' };
  const status = typeof record.task_status === 'string' ? record.task_status : record.status;
  const progress =
    typeof record.progress === 'number'
      ? record.progress
      : typeof record.progress === 'string' && /^\d+(\.\d+)?%?$/.test(record.progress.trim())
        ? Number.parseFloat(record.progress)
        : null;
  const error = isBag(record.error) ? record.error : null;
  const state = (status && STATES[status.toLowerCase()]) || 'UNKNOWN';
  // A failed task in the envelope is a task error (interface 7 rule 2): its code and message
  // stand at the top, beside the task as `data` ("success" is the envelope's own word for OK).
  const top = envelope && state === 'FAILURE' ? envelopeError(envelope) : null;
  return {
    ok: true,
    task: {
      id,
      api,
      state,
      platformStatus: status ?? null,
      progress,
      failReason:
        record.fail_reason ??
        (typeof error?.message === 'string' ? error.message : null) ??
        top?.message ??
        null,
      errorCode: (typeof error?.code === 'string' ? error.code : null) ?? top?.code ?? null,
      raw: body,
    },
  };
}

function envelopeError(envelope: Record<string, unknown>): {
  code: string | null;
  message: string | null;
} {
  const { code, message } = envelope;
  const text = typeof code === 'string' || typeof code === 'number' ? String(code).trim() : '';
  return {
    code: text === '' || text.toLowerCase() === 'success' ? null : text,
    message: typeof message === 'string' && message.trim() !== '' ? message : null,
  };
}
