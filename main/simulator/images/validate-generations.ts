import { badRequest } from '../http.ts';
import type { ImageModelSpec } from '../models.ts';
import {
  optionalBoolean,
  optionalObject,
  optionalString,
  rejectUnknownFields,
  requirePrompt,
  type Fields,
} from './fields.ts';
import {
  ADVANCED_N_MAX,
  parseExtra,
  parseN,
  parseOutputFormat,
  parseQuality,
  parseResponseFormat,
  parseSeed,
} from './option-fields.ts';
import { parseQwenMessages, rejectOpenAiFieldsInQwenBody } from './qwen-body.ts';
import { stableJson, type ImageRequest } from './request.ts';
import { checkModelSize, parseAdvancedSize, parseQwenSize, parseWxH, type Size } from './sizes.ts';

const GENERATIONS = '/v1/images/generations';
const OPENAI_FIELDS = [
  'model',
  'prompt',
  'n',
  'size',
  'quality',
  'response_format',
  'output_format',
  'extra_fields',
] as const;
const ADVANCED_FIELDS = [...OPENAI_FIELDS, 'seed', 'extra'] as const;
const QWEN_PARAMETERS = [
  'size',
  'n',
  'seed',
  'negative_prompt',
  'prompt_extend',
  'watermark',
] as const;

/** Fields the advanced entry names but refuses (interface 7): checked before anything is billed. */
export const CLOSED_ADVANCED_FIELDS: Readonly<Record<string, string>> = {
  image_urls:
    'multi-reference image-to-image is currently closed on the advanced entry. Remove "image_urls"; to change an existing picture use /v1/images/edits with a model that supports editing.',
  webhook:
    'asynchronous callbacks are currently closed on the advanced entry. Remove "webhook"; the result comes back in the HTTP response.',
};

export function rejectClosedAdvancedFields(body: Fields): void {
  for (const [field, hint] of Object.entries(CLOSED_ADVANCED_FIELDS)) {
    if (body[field] !== undefined) throw badRequest('field_closed', `"${field}": ${hint}`, field);
  }
}

function sizeField(fields: Fields, model: ImageModelSpec, parse: (text: string) => Size): Size {
  const text = optionalString(fields, 'size');
  return checkModelSize(model, text === undefined ? parseWxH(model.defaultSize) : parse(text));
}

/** `POST /v1/images/generations` with the OpenAI body (interface 2.1). */
export function parseOpenAiGeneration(body: Fields, model: ImageModelSpec): ImageRequest {
  if (body.input !== undefined) {
    throw badRequest(
      'unknown_parameter',
      `Model "${model.id}" takes the OpenAI body: send "prompt" (and n, size…) at the top level, not "input".`,
      'input',
    );
  }
  rejectUnknownFields(body, OPENAI_FIELDS, GENERATIONS);
  const quality = parseQuality(body, model);
  const extra = parseExtra(body, model, ['extra_fields']);
  return {
    prompt: requirePrompt(body.prompt, 'prompt'),
    n: parseN(body, model, model.nMax),
    size: sizeField(body, model, (text) => parseWxH(text)),
    format: parseOutputFormat(body, model),
    responseFormat: parseResponseFormat(body),
    seed: null,
    detail: stableJson({ quality, extra }),
    watermark: false,
    revisePrompt: model.revisedPrompt === true,
  };
}

/** `POST /v1/{segment}/images/advanced`: interface 2.1 plus 2.2. */
export function parseAdvanced(body: Fields, model: ImageModelSpec, path: string): ImageRequest {
  rejectClosedAdvancedFields(body);
  rejectUnknownFields(body, ADVANCED_FIELDS, path);
  const quality = parseQuality(body, model);
  const extra = parseExtra(body, model, ['extra', 'extra_fields']);
  return {
    prompt: requirePrompt(body.prompt, 'prompt'),
    n: parseN(body, model, ADVANCED_N_MAX),
    size: sizeField(body, model, (text) => parseAdvancedSize(text)),
    format: parseOutputFormat(body, model),
    responseFormat: parseResponseFormat(body),
    seed: parseSeed(body),
    detail: stableJson({ quality, extra }),
    watermark: false,
    revisePrompt: model.revisedPrompt === true,
  };
}

/** `POST /v1/images/generations` with the Qwen-style body (interface 2.3). */
export function parseQwenGeneration(body: Fields, model: ImageModelSpec): ImageRequest {
  rejectOpenAiFieldsInQwenBody(body, model);
  const { texts } = parseQwenMessages(body, false);
  const prompt = requirePrompt(texts.join('\n'), 'input.messages[].content[].text');
  const parameters = optionalObject(body, 'parameters') ?? {};
  rejectUnknownFields(parameters, QWEN_PARAMETERS, 'parameters', 'parameters.');
  const negative = optionalString(parameters, 'negative_prompt', 'parameters.negative_prompt');
  const extend = optionalBoolean(parameters, 'prompt_extend', 'parameters.prompt_extend');
  const watermark = optionalBoolean(parameters, 'watermark', 'parameters.watermark') ?? false;
  const sizeText = optionalString(parameters, 'size', 'parameters.size');
  const size =
    sizeText === undefined
      ? parseWxH(model.defaultSize)
      : parseQwenSize(sizeText, 'parameters.size');
  return {
    prompt,
    n: parseN(parameters, model, model.nMax, 'parameters.n'),
    size: checkModelSize(model, size, 'parameters.size', '*'),
    format: 'png',
    responseFormat: 'url',
    seed: parseSeed(parameters, 'parameters.seed'),
    detail: stableJson({ negative: negative ?? null }),
    watermark,
    revisePrompt: extend === true || model.revisedPrompt === true,
  };
}
