import type { MultipartImageField } from '../../../../shared/gateway/profile.ts';
import {
  editImages,
  type EditRequest,
  type ImageRequest,
  type ImageSource,
} from '../../../../shared/gateway/requests.ts';
import type {
  AdvancedImageBody,
  OpenAiImageBody,
  QwenEditBody,
  QwenImageBody,
} from '../../../../shared/gateway/wire/images.ts';
import { toQwenSize } from './sizes.ts';

/**
 * Request bodies per protocol. They assume a validated request (see validate.ts) and only
 * carry the fields that were given: the gateway's defaults apply to the rest.
 */

function defined<T extends object>(value: T): T {
  // A plain loop: this runs for every request, and the entries/filter/fromEntries chain costs more.
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (field !== undefined) out[key] = field;
  return out as T;
}

const hasKeys = (value: object) => Object.keys(value).length > 0;

/** Interface 2.1 on /v1/images/generations; the vendor bag is `extra_fields` there. */
export function openAiBody(request: ImageRequest): OpenAiImageBody {
  return defined({
    model: request.model,
    prompt: request.prompt,
    n: request.n,
    size: request.size,
    quality: request.quality,
    response_format: request.response_format,
    output_format: request.output_format,
    extra_fields: request.extra,
  });
}

/** Interface 2.1 + 2.2; the vendor bag goes as `extra` (the entry's own, fuller description). */
export function advancedBody(request: ImageRequest): AdvancedImageBody {
  return defined({
    model: request.model,
    prompt: request.prompt,
    n: request.n,
    size: request.size,
    quality: request.quality,
    response_format: request.response_format,
    output_format: request.output_format,
    seed: request.seed,
    extra: request.extra,
  });
}

function qwenParameters(request: ImageRequest) {
  return defined({
    negative_prompt: request.negative_prompt,
    prompt_extend: request.prompt_extend,
    watermark: request.watermark,
    n: request.n,
    seed: request.seed,
  });
}

/** Interface 2.3: the prompt as a message, options in `parameters`, size as `W*H`. */
export function qwenBody(request: ImageRequest): QwenImageBody {
  const parameters = defined({
    ...qwenParameters(request),
    size: request.size === undefined ? undefined : toQwenSize(request.size),
  });
  return {
    model: request.model,
    input: { messages: [{ role: 'user', content: [{ text: request.prompt }] }] },
    ...(hasKeys(parameters) ? { parameters } : {}),
  };
}

/**
 * Interface 2.4, JSON form: each picture as an `{image: url}` item (in order), then the
 * prompt text.
 */
export function qwenEditBody(request: EditRequest, imageUrls: readonly string[]): QwenEditBody {
  const parameters = qwenParameters(request);
  const images = imageUrls.map((image) => ({ image }));
  return {
    model: request.model,
    input: { messages: [{ role: 'user', content: [...images, { text: request.prompt }] }] },
    ...(hasKeys(parameters) ? { parameters } : {}),
  };
}

/** A picture given as bytes becomes a data URL for the JSON edit body. */
export function imageUrlOf(image: ImageSource): string {
  if ('url' in image) return image.url;
  return `data:${image.mimeType};base64,${Buffer.from(image.bytes).toString('base64')}`;
}

/**
 * The multipart name of the pictures' file parts: one name for all of them, never both
 * (a gateway reading `image` would miss an `image[]` part, and the other way round).
 */
export function imageFieldName(count: number, setting: MultipartImageField): 'image' | 'image[]' {
  if (setting === 'auto') return count > 1 ? 'image[]' : 'image';
  return setting;
}

/** Interface 2.4, multipart form; `imageField` names the pictures' parts (see imageFieldName). */
export function editForm(request: EditRequest, imageField: MultipartImageField = 'auto'): FormData {
  const form = new FormData();
  form.set('model', request.model);
  form.set('prompt', request.prompt);
  const file = (source: ImageSource, name: string) => {
    if (!('bytes' in source))
      throw new Error(`The ${name} must be file bytes for a multipart edit.`);
    form.append(
      name,
      new Blob([source.bytes as Uint8Array<ArrayBuffer>], { type: source.mimeType }),
      source.filename,
    );
  };
  const images = editImages(request);
  const name = imageFieldName(images.length, imageField);
  for (const image of images) file(image, name);
  if (request.mask) file(request.mask, 'mask');
  const text: Array<[string, unknown]> = [
    ['n', request.n],
    ['size', request.size],
    ['response_format', request.response_format],
    ['quality', request.quality],
    ['output_format', request.output_format],
  ];
  for (const [name, value] of text) if (value !== undefined) form.set(name, String(value));
  return form;
}
