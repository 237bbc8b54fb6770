import type { ApiErrorCode } from '../../../shared/api/errors.ts';

/**
 * An error the service means to show: a code clients can act on and a host-neutral message
 * (each host adds its own advice: a flag for the CLI, a place in Settings for the UI).
 */
export class AppError extends Error {
  readonly code: ApiErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ApiErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }
}
