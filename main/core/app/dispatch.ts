import { findMethod } from '../../../shared/api/channels.ts';
import type { ApiError, Result } from '../../../shared/api/errors.ts';
import type { Handlers } from '../../../shared/api/types.ts';
import { PARSE_ONCE } from '../../../shared/api/define.ts';

export interface DispatchOptions {
  /** Turns anything a handler threw into an error that may cross the contract. */
  toApiError: (error: unknown) => ApiError;
  /** Parse outputs too (tests and development): a handler that breaks the contract fails loudly. */
  checkOutput?: boolean;
}

/**
 * One call from any transport: the area and method are looked up in the contract (never
 * trusted as property names), the input is parsed with its schema, the handler runs, and
 * whatever happens comes back as a `Result`. IPC and the web host both call this.
 */
export async function dispatch(
  handlers: Handlers,
  area: string,
  method: string,
  raw: unknown,
  options: DispatchOptions,
): Promise<Result<unknown>> {
  const spec = findMethod(area, method);
  if (!spec) {
    return failure('not-found', `Atelier has no method "${area}.${method}".`);
  }
  const input = spec.input.safeParse(raw ?? {}, PARSE_ONCE);
  if (!input.success) {
    return failure(
      'invalid-argument',
      `${area}.${method}: ${input.error.issues
        .slice(0, 5)
        .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
        .join('; ')}`,
      { issues: input.error.issues.slice(0, 50) },
    );
  }
  try {
    const handler = (handlers as unknown as Record<string, Record<string, Handler>>)[area]![
      method
    ]!;
    const value = await handler(input.data);
    if (options.checkOutput) spec.output.parse(value);
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: options.toApiError(error) };
  }
}

type Handler = (input: unknown) => Promise<unknown>;

function failure(
  code: ApiError['code'],
  message: string,
  details?: Record<string, unknown>,
): Result<never> {
  return { ok: false, error: details ? { code, message, details } : { code, message } };
}
