import type { ImageModelEntry } from '../../../../shared/gateway/catalogue.ts';
import { OUTPUT_FORMATS } from '../../../../shared/gateway/catalogue.ts';
import type { ImageRequest } from '../../../../shared/gateway/requests.ts';
import { BODY_FIELDS, BODY_NAMES, type ImageBody, type OptionalField } from './body-fields.ts';
import { parseSize, sizeProblem } from './sizes.ts';

export const SEED_MAX = 4_294_967_295;
/** The advanced entry's own ceiling on n, whatever the model allows (interface 2.2). */
export const ADVANCED_N_MAX = 10;

const CLOSED_ON_ADVANCED: Record<string, string> = {
  image_urls:
    'Reference images (image_urls) are blocked by the gateway on the advanced entry for now; remove them. To change an existing picture, use an edit with a model that supports editing.',
  webhook:
    'Callbacks (webhook) are blocked by the gateway on the advanced entry for now; remove it. The result comes back in the answer.',
};

/**
 * Every reason this request cannot be sent as it is, in words a person understands; an empty
 * list means it may leave the machine. Pure: the entry says what the model takes, the body
 * what the endpoint can carry.
 */
export function imageRequestProblems(
  request: ImageRequest,
  entry: ImageModelEntry,
  body: ImageBody,
): string[] {
  const problems: string[] = [];
  const model = entry.id;
  const given = (field: OptionalField) => request[field] !== undefined && request[field] !== null;

  if (typeof request.prompt !== 'string' || request.prompt.trim() === '') {
    problems.push('The prompt is empty: describe the image to make.');
  }

  for (const field of ['image_urls', 'webhook'] as const) {
    if (request[field] !== undefined || (request.extra && field in request.extra)) {
      problems.push(
        body === 'advanced'
          ? (CLOSED_ON_ADVANCED[field] ?? '')
          : `"${field}" is not a field of ${BODY_NAMES[body]}; remove it.`,
      );
    }
  }

  for (const field of Object.keys(FIELD_LABELS) as OptionalField[]) {
    if (given(field) && !BODY_FIELDS[body].includes(field)) {
      problems.push(
        `${capitalise(FIELD_LABELS[field])} cannot be sent to ${BODY_NAMES[body]}; remove it.`,
      );
    }
  }
  const sendable = (field: OptionalField) => given(field) && BODY_FIELDS[body].includes(field);

  if (sendable('n')) {
    const max = body === 'advanced' ? Math.min(entry.nMax, ADVANCED_N_MAX) : entry.nMax;
    const n = request.n as number;
    if (!Number.isInteger(n) || n < entry.nMin || n > max) {
      problems.push(
        entry.nMin === max
          ? `Model ${model} makes exactly ${max} image${max === 1 ? '' : 's'} per request; n = ${n} was asked.`
          : `The number of images (n) must be a whole number from ${entry.nMin} to ${max} for ${model}; ${n} was asked.`,
      );
    }
  }

  if (sendable('size')) {
    const size = String(request.size);
    const problem = sizeProblem(parseSize(size, body === 'advanced'), entry, size);
    if (problem) problems.push(problem);
  }

  if (sendable('seed')) {
    const seed = request.seed as number;
    if (!entry.seed) problems.push(`Model ${model} does not take a seed; remove it.`);
    else if (!Number.isInteger(seed) || seed < 0 || seed > SEED_MAX) {
      problems.push(`The seed must be a whole number from 0 to ${SEED_MAX}; ${seed} was given.`);
    }
  }

  if (sendable('quality')) {
    const quality = String(request.quality);
    if (entry.quality !== 'any' && entry.quality.length === 0) {
      problems.push(`Model ${model} has no quality setting; remove it.`);
    } else if (entry.quality !== 'any' && !entry.quality.includes(quality)) {
      problems.push(
        `Model ${model} takes quality ${orList(entry.quality)}; "${quality}" is not one of them.`,
      );
    }
  }

  if (sendable('output_format')) {
    const format = String(request.output_format);
    if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
      problems.push(`The output format must be png, jpeg or webp; "${format}" is not one of them.`);
    } else if (entry.outputFormats.length === 0) {
      problems.push(`Model ${model} always makes PNG images; remove the output format.`);
    } else if (!(entry.outputFormats as string[]).includes(format)) {
      problems.push(`Model ${model} makes ${orList(entry.outputFormats)} images, not ${format}.`);
    }
  }

  if (
    sendable('response_format') &&
    !['url', 'b64_json'].includes(String(request.response_format))
  ) {
    problems.push(
      `The response format must be "url" or "b64_json"; "${String(request.response_format)}" is not one of them.`,
    );
  }

  if (sendable('negative_prompt') && !entry.negativePrompt) {
    problems.push(`Model ${model} does not take a negative prompt; remove it.`);
  }

  if (sendable('extra') && !entry.extra) {
    problems.push(`Model ${model} takes no model-specific extra fields; remove them.`);
  }

  return problems;
}

const FIELD_LABELS: Record<OptionalField, string> = {
  n: 'the number of images (n)',
  size: 'a size',
  seed: 'a seed',
  quality: 'a quality',
  output_format: 'an output format',
  response_format: 'a response format',
  negative_prompt: 'a negative prompt',
  prompt_extend: 'prompt extension (prompt_extend)',
  watermark: 'a watermark setting',
  extra: 'extra model fields',
};

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function orList(values: readonly string[]): string {
  return values.length <= 1
    ? (values[0] ?? '')
    : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}
