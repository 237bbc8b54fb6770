import type { ApiError, ApiErrorCode } from './errors.ts';

/**
 * An error the service returned, thrown on the caller's side. In a module of its own: a
 * caller that only tells it apart (the CLI's top level) does not load the whole contract.
 */
export class ApiRequestError extends Error {
  readonly code: ApiErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(error: ApiError) {
    super(error.message);
    this.name = 'ApiRequestError';
    this.code = error.code;
    this.details = error.details;
  }
}
