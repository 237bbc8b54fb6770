import { badRequest } from '../http.ts';
import type { ImageModelSpec } from '../models.ts';
import type { EditImageField } from '../options.ts';
import {
  checkRange,
  optionalBoolean,
  optionalObject,
  optionalString,
  rejectUnknownFields,
  requirePrompt,
  unknownField,
  wrongType,
  type Fields,
} from './fields.ts';
import { stableJson, type ImageRequest } from './request.ts';
import { checkModelSize, parseWxH } from './sizes.ts';
import {
  parseN,
  parseOutputFormat,
  parseQuality,
  parseResponseFormat,
  parseSeed,
} from './option-fields.ts';
import { parseQwenMessages, rejectOpenAiFieldsInQwenBody } from './qwen-body.ts';

const EDITS = '/v1/images/edits (multipart)';
/** Interface 2.4, plus quality / output_format where the model takes them (as on generations). */
const MULTIPART_FIELDS = [
  'model',
  'prompt',
  'image',
  'mask',
  'n',
  'size',
  'response_format',
  'quality',
  'output_format',
] as const;
const QWEN_EDIT_PARAMETERS = [
  'n',
  'seed',
  'negative_prompt',
  'prompt_extend',
  'watermark',
] as const;

/** An edit request; `size` null means "the input image's own size, if the model allows it". */
export interface EditRequest extends Omit<ImageRequest, 'size'> {
  size: ImageRequest['size'] | null;
}

export interface MultipartEdit {
  request: EditRequest;
  image: Blob;
  mask: Blob | null;
  /** The name the picture came under. */
  imageField: 'image' | 'image[]';
}

/** `image[]` is how some clients name a file list; one image is edited at a time. */
const fieldName = (name: string) => (name.endsWith('[]') ? name.slice(0, -2) : name);

/** Multipart values grouped by field name, and the names the picture came under. */
function groupForm(form: FormData): {
  groups: Map<string, Array<string | Blob>>;
  imageNames: Set<string>;
} {
  const groups = new Map<string, Array<string | Blob>>();
  const imageNames = new Set<string>();
  for (const [name, value] of form.entries()) {
    const key = fieldName(name);
    if (!(MULTIPART_FIELDS as readonly string[]).includes(key)) {
      throw unknownField(name, EDITS, MULTIPART_FIELDS);
    }
    if (key === 'image') imageNames.add(name);
    groups.set(key, [...(groups.get(key) ?? []), value]);
  }
  return { groups, imageNames };
}

/**
 * The picture's part name, as this gateway reads it (`accepted`): a gateway reads `image` or
 * `image[]`, and a client that sends both has sent one of them for nothing.
 */
function checkImageField(names: Set<string>, accepted: EditImageField): 'image' | 'image[]' {
  if (names.size > 1) {
    throw badRequest(
      'invalid_value',
      'Send the picture as "image" or as "image[]", not both in one request.',
      'image',
    );
  }
  const used = (names.values().next().value ?? 'image') as 'image' | 'image[]';
  if (accepted !== 'any' && used !== accepted) {
    throw badRequest(
      'unknown_parameter',
      `"${used}" is not read by this gateway: send the picture as "${accepted}".`,
      used,
    );
  }
  return used;
}

function textValue(groups: Map<string, Array<string | Blob>>, name: string): string | undefined {
  const values = groups.get(name);
  if (!values) return undefined;
  if (values.length > 1)
    throw badRequest('invalid_value', `"${name}" is given more than once.`, name);
  const value = values[0];
  if (typeof value !== 'string') throw wrongType(name, 'a text field, not a file');
  return value;
}

function fileValue(groups: Map<string, Array<string | Blob>>, name: string): Blob | undefined {
  const values = groups.get(name);
  if (!values) return undefined;
  if (values.length > 1) {
    throw badRequest(
      'invalid_value',
      `Send one "${name}" file; this gateway edits one image at a time.`,
      name,
    );
  }
  const value = values[0];
  if (typeof value === 'string') throw wrongType(name, 'a file (multipart file part)');
  return value;
}

/** Multipart form on /v1/images/edits (interface 2.4). Pure: file bytes are checked later. */
export function parseMultipartEdit(
  form: FormData,
  model: ImageModelSpec,
  accepted: EditImageField = 'any',
): MultipartEdit {
  const { groups, imageNames } = groupForm(form);
  const imageField = checkImageField(imageNames, accepted);
  const image = fileValue(groups, 'image');
  if (!image || image.size === 0) {
    throw badRequest(
      'missing_image',
      '"image" is required: attach the picture to edit as a file.',
      'image',
    );
  }
  const fields: Fields = {};
  for (const name of ['prompt', 'size', 'response_format', 'quality', 'output_format']) {
    const value = textValue(groups, name);
    if (value !== undefined) fields[name] = value;
  }
  const nText = textValue(groups, 'n');
  if (nText !== undefined) {
    if (!/^[0-9]+$/.test(nText.trim())) throw wrongType('n', 'an integer');
    fields.n = checkRange(Number(nText), 1, model.nMax, 'n');
  }
  const quality = parseQuality(fields, model);
  const sizeText = optionalString(fields, 'size');
  return {
    request: {
      prompt: requirePrompt(fields.prompt, 'prompt'),
      n: parseN(fields, model, model.nMax),
      size: sizeText === undefined ? null : checkModelSize(model, parseWxH(sizeText)),
      format: parseOutputFormat(fields, model),
      responseFormat: parseResponseFormat(fields),
      seed: null,
      detail: stableJson({ edit: true, quality }),
      watermark: false,
      revisePrompt: model.revisedPrompt === true,
    },
    image,
    mask: fileValue(groups, 'mask') ?? null,
    imageField,
  };
}

export interface QwenEdit {
  request: EditRequest;
  /** The `{image: url}` item to edit. */
  imageUrl: string;
}

/** JSON body on /v1/images/edits for Qwen-style edit models (interface 2.4). */
export function parseQwenEdit(body: Fields, model: ImageModelSpec): QwenEdit {
  rejectOpenAiFieldsInQwenBody(body, model);
  const { texts, images } = parseQwenMessages(body, true);
  if (images.length !== 1) {
    throw badRequest(
      'missing_image',
      `Put exactly one {image: <URL>} item in input.messages[].content; got ${images.length}.`,
      'input.messages',
    );
  }
  const prompt = requirePrompt(texts.join('\n'), 'input.messages[].content[].text');
  const parameters = optionalObject(body, 'parameters') ?? {};
  rejectUnknownFields(parameters, QWEN_EDIT_PARAMETERS, 'parameters', 'parameters.');
  const negative = optionalString(parameters, 'negative_prompt', 'parameters.negative_prompt');
  const extend = optionalBoolean(parameters, 'prompt_extend', 'parameters.prompt_extend');
  return {
    request: {
      prompt,
      n: parseN(parameters, model, model.nMax, 'parameters.n'),
      size: null,
      format: 'png',
      responseFormat: 'url',
      seed: parseSeed(parameters, 'parameters.seed'),
      detail: stableJson({ edit: true, negative: negative ?? null }),
      watermark: optionalBoolean(parameters, 'watermark', 'parameters.watermark') ?? false,
      revisePrompt: extend === true || model.revisedPrompt === true,
    },
    imageUrl: images[0] ?? '',
  };
}
