import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiError, ApiErrorCode, Result } from '../../shared/api/errors.ts';

// Codes without an entry are known failures of a valid request: 422.
const STATUS: Partial<Record<ApiErrorCode, ContentfulStatusCode>> = {
  'invalid-argument': 400,
  'key-invalid': 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  busy: 409,
  'library-busy': 409,
  internal: 500,
};

/** The HTTP status a `Result` travels with: one client parser reads every body anyway. */
export function statusOf(result: Result<unknown>): ContentfulStatusCode {
  return result.ok ? 200 : (STATUS[result.error.code] ?? 422);
}

/** A failure in the contract's shape, for errors the web host raises itself (401, 413…). */
export function failure(
  code: ApiErrorCode,
  message: string,
  details?: Record<string, unknown>,
): { ok: false; error: ApiError } {
  return { ok: false, error: details ? { code, message, details } : { code, message } };
}
