import { modelFor, type RequestContext } from '../context.ts';
import { badRequest, readBody, readJsonObject } from '../http.ts';
import type { VideoModelSpec } from '../models.ts';

export interface VideoSubmission {
  spec: VideoModelSpec;
  prompt: string;
  seconds: number;
  size: string;
}

/**
 * Reads a submission body: JSON, or multipart/form-data as the `openai` client sends it
 * (text fields; an `input_reference` file is accepted and not used).
 */
async function readFields(ctx: RequestContext): Promise<Record<string, unknown>> {
  const type = ctx.req.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) return readJsonObject(ctx.req);
  const bytes = await readBody(ctx.req);
  let form: FormData;
  try {
    // The web Request parses multipart bodies; no hand-written parser needed.
    form = await new Request('http://simulator/', {
      method: 'POST',
      headers: { 'content-type': type },
      body: new Uint8Array(bytes),
    }).formData();
  } catch {
    throw badRequest(
      'invalid_multipart',
      'The multipart/form-data body could not be parsed. Check the boundary in Content-Type.',
    );
  }
  const fields: Record<string, unknown> = {};
  for (const [name, value] of form) fields[name] = value;
  return fields;
}

function readSeconds(raw: unknown, spec: VideoModelSpec): number {
  const text = raw === undefined || raw === null || raw === '' ? spec.seconds[0] : String(raw);
  if (text === undefined || !spec.seconds.includes(text)) {
    throw badRequest(
      'invalid_seconds',
      `"seconds" must be one of ${spec.seconds.join(', ')} for model "${spec.id}".`,
      'seconds',
    );
  }
  return Number(text);
}

function readSize(raw: unknown, spec: VideoModelSpec): string {
  if (raw === undefined || raw === null || raw === '') return spec.sizes[0] ?? '1280x720';
  const size = String(raw);
  if (size.includes('×')) {
    throw badRequest(
      'invalid_size',
      `"size" must use a lowercase x, as in ${spec.sizes[0]}; the × sign is not accepted.`,
      'size',
    );
  }
  if (!spec.sizes.includes(size)) {
    throw badRequest(
      'invalid_size',
      `"size" must be one of ${spec.sizes.join(', ')} for model "${spec.id}".`,
      'size',
    );
  }
  return size;
}

/** Which submission API a request came through. */
export type VideoApi = 'videos' | 'task';

/** The first video model the API serves: the OpenAI API likewise defaults to sora-2. */
function defaultVideoModel(ctx: RequestContext, api: VideoApi): string | undefined {
  return [...ctx.state.models.values()].find(
    (m) => m.kind === 'video' && (api === 'task' || !m.taskApiOnly),
  )?.id;
}

/**
 * Validates a video submission. `seconds` may also be given as `duration` (task-style
 * bodies). Everything is checked before any quota is pre-deducted.
 */
export async function readVideoSubmission(
  ctx: RequestContext,
  api: VideoApi,
): Promise<VideoSubmission> {
  const fields = await readFields(ctx);
  const spec = modelFor(ctx, fields.model ?? defaultVideoModel(ctx, api), 'video');
  if (api === 'videos' && spec.taskApiOnly) {
    throw badRequest(
      'model_requires_task_api',
      `Model "${spec.id}" is served only by the task API: submit it with POST /v1/video/generations and poll GET /v1/video/generations/{task_id}.`,
      'model',
    );
  }
  const prompt = fields.prompt;
  if (typeof prompt !== 'string' || prompt.trim() === '') {
    throw badRequest(
      'missing_prompt',
      'The "prompt" field is required: describe the video.',
      'prompt',
    );
  }
  return {
    spec,
    prompt,
    seconds: readSeconds(fields.seconds ?? fields.duration, spec),
    size: readSize(fields.size, spec),
  };
}
