import type { RequestContext } from '../context.ts';
import { badRequest, readBody, type ApiError } from '../http.ts';
import { seedFrom } from '../random.ts';
import type { ImageServices } from './services.ts';

/** Reads a multipart/form-data body with the platform's own parser (the same as fetch's). */
export async function readMultipart(ctx: RequestContext): Promise<FormData> {
  // Buffered first, so readBody's size limit (413) applies before parsing.
  const body = await readBody(ctx.req);
  const request = new Request('http://gateway.local/', {
    method: 'POST',
    headers: { 'content-type': ctx.req.headers['content-type'] ?? '' },
    // Buffer.concat allocates a plain (not shared) ArrayBuffer.
    body: body as Buffer<ArrayBuffer>,
  });
  try {
    return await request.formData();
  } catch (error) {
    throw badRequest(
      'invalid_multipart',
      `The multipart/form-data body could not be read (${(error as Error).message}). Check the boundary and the parts.`,
    );
  }
}

const DATA_URL = /^data:image\/[a-z0-9.+-]+;base64,([A-Za-z0-9+/=\s]+)$/i;
const FILE_PATH = /^\/files\/([0-9a-z]+)\.(png|jpg|webp)$/;
/** Size of the stand-in picture for an outside URL. */
const STAND_IN = 512;

/**
 * The bytes behind a Qwen edit's `{image: url}`. The simulator has no network, so:
 * a `data:image/…;base64,` URL is decoded; a link this simulator returned is re-rendered;
 * any other http(s) URL stands for a deterministic picture derived from the URL itself
 * (a real gateway would fetch it; here the same URL always yields the same input).
 */
export async function resolveImageUrl(
  url: string,
  ctx: RequestContext,
  services: ImageServices,
  param: string,
): Promise<Buffer> {
  const data = DATA_URL.exec(url);
  if (data) return Buffer.from(data[1] ?? '', 'base64');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest('invalid_image_url', `${param} is not a URL: ${JSON.stringify(url)}.`, param);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw badRequest(
      'invalid_image_url',
      `${param} must be an http(s) URL or a data:image/…;base64 URL; got "${parsed.protocol}".`,
      param,
    );
  }
  const own = new URL(ctx.state.baseUrl);
  const file = FILE_PATH.exec(parsed.pathname);
  const local = parsed.port === own.port && ['127.0.0.1', 'localhost'].includes(parsed.hostname);
  if (local && file) {
    const found = services.links.lookup(file[1] ?? '', file[2] ?? '');
    if (found.state === 'live') return services.render(found.spec);
    throw badRequest(
      'invalid_image_url',
      found.state === 'expired'
        ? `${param} is a link of this gateway that has expired. Send the picture itself (a data: URL) or a fresh link.`
        : `${param} points at this gateway but no such file exists. Use a link exactly as an image endpoint returned it.`,
      param,
    );
  }
  return services.render({
    prompt: url,
    seed: seedFrom('image-url', url),
    index: 0,
    width: STAND_IN,
    height: STAND_IN,
    format: 'png',
    detail: 'stand-in',
    watermark: false,
    source: null,
    mask: null,
  });
}

/** 400 when the body style does not match how the model edits. */
export function editProtocolError(
  modelId: string,
  wants: 'multipart' | 'qwen-json' | null,
  editors: string[],
): ApiError {
  if (wants === null) {
    return badRequest(
      'unsupported_model',
      `Model "${modelId}" does not support image editing. Models that edit: ${editors.join(', ')}.`,
      'model',
    );
  }
  return badRequest(
    'invalid_content_type',
    wants === 'multipart'
      ? `Model "${modelId}" edits through a multipart/form-data body (image file, prompt, …), not JSON.`
      : `Model "${modelId}" edits through a JSON body ({model, input: {messages}, parameters}), not multipart.`,
    'model',
  );
}
