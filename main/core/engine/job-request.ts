import type { ImageRequest, VideoRequest } from '../../../shared/gateway/requests.ts';
import type { ImageMetadata } from '../library/metadata.ts';
import type { NamingInput } from '../library/naming.ts';
import type { Batch, Job } from '../store/rows.ts';

/**
 * What a job keeps in its `params` besides its columns: the optional fields a sheet may give,
 * and the model-private extra fields. Written by the importer, read here.
 */
export type JobParams = {
  quality?: string;
  output_format?: string;
  negative_prompt?: string;
  response_format?: 'url' | 'b64_json';
  extra?: Record<string, unknown>;
  /** Video only. */
  seconds?: string;
};

/** What building a request needs of a job, stored or about to be. */
export type RequestFields = Pick<Job, 'model' | 'prompt' | 'n' | 'size' | 'seed' | 'params'>;

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** The gateway request for an image job: only the fields it has, so defaults stay the gateway's. */
export function imageRequestFor(
  job: RequestFields,
  defaults: { responseFormat?: 'url' | 'b64_json' } = {},
): ImageRequest {
  const params = job.params as JobParams;
  const request: ImageRequest = { model: job.model, prompt: job.prompt, n: job.n };
  if (job.size) request.size = job.size;
  if (job.seed !== null) request.seed = job.seed;
  const optional = {
    quality: text(params.quality),
    output_format: text(params.output_format),
    negative_prompt: text(params.negative_prompt),
    response_format: text(params.response_format) ?? defaults.responseFormat,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) Object.assign(request, { [key]: value });
  }
  if (params.extra && Object.keys(params.extra).length > 0) request.extra = params.extra;
  return request;
}

export function videoRequestFor(
  job: Pick<Job, 'model' | 'prompt' | 'size' | 'params'>,
): VideoRequest {
  const params = job.params as JobParams;
  const request: VideoRequest = { model: job.model, prompt: job.prompt };
  if (job.size) request.size = job.size;
  const seconds = text(params.seconds);
  if (seconds) request.seconds = seconds;
  if (params.extra && Object.keys(params.extra).length > 0) request.extra = params.extra;
  return request;
}

/** The naming module's input for image number `idx` (1-based) of a job. */
export function namingInputFor(batch: Batch, job: Job, idx: number, ext: string): NamingInput {
  return {
    batch: batch.dirName,
    index: job.position,
    indexWidth: Math.max(4, String(batch.jobCount).length),
    image: idx,
    // a top-up continues its origin's numbering, so names count the origin's images too
    imageCount: Math.max(job.imageOffset + job.n, idx),
    prompt: job.prompt,
    name: job.name,
    seed: job.seed,
    model: job.model,
    size: job.size,
    job: job.id,
    date: new Date(job.createdAt),
    ext,
  };
}

/** What is embedded in the file: enough to find the prompt and make the picture again. */
export function metadataFor(batch: Batch, job: Job, idx: number): ImageMetadata {
  const params = job.params as JobParams;
  const parameters: Record<string, unknown> = {};
  for (const key of ['quality', 'output_format', 'response_format'] as const) {
    if (params[key] !== undefined) parameters[key] = params[key];
  }
  if (params.extra) Object.assign(parameters, params.extra);
  return {
    prompt: job.prompt,
    negativePrompt: params.negative_prompt ?? null,
    model: job.model,
    size: job.size ?? 'default',
    seed: job.seed,
    index: idx - 1,
    batch: batch.name,
    requestId: job.lastRequestId,
    parameters,
    createdAt: new Date(job.finishedAt ?? job.updatedAt).toISOString(),
  };
}

/** The extension a result is expected in: the asked output_format, else PNG (the usual default). */
export function expectedFormat(job: Job): 'png' | 'jpeg' | 'webp' | 'mp4' {
  if (job.kind === 'video') return 'mp4';
  const format = text((job.params as JobParams).output_format);
  return format === 'jpeg' || format === 'webp' ? format : 'png';
}
