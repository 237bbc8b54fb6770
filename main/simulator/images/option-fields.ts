import { badRequest } from '../http.ts';
import type { ImageModelSpec } from '../models.ts';
import {
  optionalInteger,
  optionalObject,
  optionalString,
  unsupportedField,
  type Fields,
} from './fields.ts';
import {
  IMAGE_FORMATS,
  RESPONSE_FORMATS,
  type ImageFormat,
  type ResponseFormat,
} from './request.ts';

/** Parsers of the option fields the image bodies share (OpenAI, advanced, multipart, Qwen). */

export const SEED_MAX = 4_294_967_295;
/** The advanced entry's own ceiling on n, whatever the model allows (interface 2.2). */
export const ADVANCED_N_MAX = 10;

/** `n`: default 1, from 1 to the model's (and the entry's) maximum. */
export function parseN(fields: Fields, model: ImageModelSpec, max: number, param = 'n'): number {
  return optionalInteger(fields, 'n', 1, Math.min(max, model.nMax), param) ?? 1;
}

export function parseSeed(fields: Fields, param = 'seed'): number | null {
  return optionalInteger(fields, 'seed', 0, SEED_MAX, param) ?? null;
}

export function parseResponseFormat(fields: Fields): ResponseFormat {
  const value = optionalString(fields, 'response_format') ?? 'url';
  if (!(RESPONSE_FORMATS as readonly string[]).includes(value)) {
    throw badRequest(
      'invalid_value',
      `"response_format" must be "url" or "b64_json"; got ${JSON.stringify(value)}.`,
      'response_format',
    );
  }
  return value as ResponseFormat;
}

export function parseOutputFormat(fields: Fields, model: ImageModelSpec): ImageFormat {
  const value = optionalString(fields, 'output_format');
  if (value === undefined) return 'png';
  if (!model.outputFormat) {
    throw unsupportedField(
      'output_format',
      model.id,
      'Its images are always PNG; remove the field.',
    );
  }
  if (!(IMAGE_FORMATS as readonly string[]).includes(value)) {
    throw badRequest(
      'invalid_value',
      `"output_format" must be png, jpeg or webp; got ${JSON.stringify(value)}.`,
      'output_format',
    );
  }
  return value as ImageFormat;
}

export function parseQuality(fields: Fields, model: ImageModelSpec): string | null {
  const value = optionalString(fields, 'quality');
  if (value === undefined) return null;
  if (model.quality.length === 0) throw unsupportedField('quality', model.id);
  if (!model.quality.includes(value)) {
    throw badRequest(
      'invalid_value',
      `Model "${model.id}" takes quality ${model.quality.join(', ')}; got ${JSON.stringify(value)}.`,
      'quality',
    );
  }
  return value;
}

/** The model-private bags `extra` and `extra_fields`, merged; only where the model takes them. */
export function parseExtra(
  fields: Fields,
  model: ImageModelSpec,
  names: readonly string[],
): Fields {
  const merged: Fields = {};
  for (const name of names) {
    const bag = optionalObject(fields, name);
    if (bag === undefined) continue;
    if (!model.extra) {
      throw unsupportedField(name, model.id, 'It takes no model-private fields; remove the bag.');
    }
    Object.assign(merged, bag);
  }
  return merged;
}
