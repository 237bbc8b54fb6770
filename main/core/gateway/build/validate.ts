import type { ImageModelEntry } from '../../../../shared/gateway/catalogue.ts';
import type { ImageRequest } from '../../../../shared/gateway/requests.ts';
import { BODY_FIELDS, BODY_NAMES, type ImageBody, type OptionalField } from './body-fields.ts';
import {
  nProblem,
  outputFormatProblem,
  qualityProblem,
  seedProblem,
  sizeProblem,
} from '../../../../shared/gateway/params.ts';

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

  const advanced = body === 'advanced';
  if (sendable('n')) {
    const problem = nProblem(entry, request.n as number, advanced);
    if (problem) problems.push(problem);
  }

  if (sendable('size')) {
    const problem = sizeProblem(entry, String(request.size), advanced);
    if (problem) problems.push(problem);
  }

  if (sendable('seed')) {
    const problem = seedProblem(entry, request.seed as number);
    if (problem) problems.push(problem);
  }

  if (sendable('quality')) {
    const problem = qualityProblem(entry, String(request.quality));
    if (problem) problems.push(problem);
  }

  if (sendable('output_format')) {
    const problem = outputFormatProblem(entry, String(request.output_format));
    if (problem) problems.push(problem);
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
