import { ApiError, badRequest } from '../http.ts';

/** A parsed JSON object body, or one nested object of it. */
export type Fields = Record<string, unknown>;

/** 422: the field is there but of the wrong JSON type. */
export function wrongType(param: string, expected: string): ApiError {
  return new ApiError(
    422,
    'invalid_request_error',
    'invalid_type',
    `"${param}" must be ${expected}.`,
    {
      param,
    },
  );
}

/** 400: the field does not belong to this endpoint or body style. */
export function unknownField(param: string, where: string, accepted: readonly string[]): ApiError {
  return badRequest(
    'unknown_parameter',
    `"${param}" is not a field of ${where}. Accepted fields: ${accepted.join(', ')}.`,
    param,
  );
}

/** 400: the endpoint knows the field, but this model does not take it. */
export function unsupportedField(
  param: string,
  model: string,
  hint = 'Remove the field.',
): ApiError {
  return badRequest(
    'unsupported_parameter',
    `Model "${model}" does not support "${param}". ${hint}`,
    param,
  );
}

/** Refuses every field outside `accepted`; `param` prefixes nested names (e.g. "parameters."). */
export function rejectUnknownFields(
  fields: Fields,
  accepted: readonly string[],
  where: string,
  prefix = '',
): void {
  for (const name of Object.keys(fields)) {
    if (!accepted.includes(name)) throw unknownField(prefix + name, where, accepted);
  }
}

/** JSON null counts as absent: clients often send `null` for "not set". */
function present(fields: Fields, name: string): unknown {
  const value = fields[name];
  return value === null ? undefined : value;
}

export function optionalString(fields: Fields, name: string, param = name): string | undefined {
  const value = present(fields, name);
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw wrongType(param, 'a string');
  return value;
}

export function optionalBoolean(fields: Fields, name: string, param = name): boolean | undefined {
  const value = present(fields, name);
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw wrongType(param, 'true or false');
  return value;
}

export function optionalObject(fields: Fields, name: string, param = name): Fields | undefined {
  const value = present(fields, name);
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw wrongType(param, 'an object');
  return value as Fields;
}

/** An integer within [min, max]: 422 when not an integer number, 400 when out of range. */
export function optionalInteger(
  fields: Fields,
  name: string,
  min: number,
  max: number,
  param = name,
): number | undefined {
  const value = present(fields, name);
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw wrongType(param, 'an integer');
  return checkRange(value, min, max, param);
}

export function checkRange(value: number, min: number, max: number, param: string): number {
  if (value < min || value > max) {
    throw badRequest(
      'invalid_value',
      `"${param}" must be between ${min} and ${max}; got ${value}.`,
      param,
    );
  }
  return value;
}

/** The prompt: a non-empty string (whitespace alone is empty). */
export function requirePrompt(value: unknown, param: string): string {
  if (value === undefined || value === null) {
    throw badRequest(
      'missing_prompt',
      `"${param}" is required: describe the image to make.`,
      param,
    );
  }
  if (typeof value !== 'string') throw wrongType(param, 'a string');
  if (!value.trim()) {
    throw badRequest('missing_prompt', `"${param}" is empty: describe the image to make.`, param);
  }
  return value;
}
