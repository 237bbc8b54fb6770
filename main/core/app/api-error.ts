import type { ApiError } from '../../../shared/api/errors.ts';
import { redact } from '../../../shared/gateway/redact.ts';
import { PromptFileError, PromptFileReadError } from '../import/prompt-file.ts';
import { OutsideLibraryError } from '../library/containment.ts';
import { LibraryFolderError } from '../library/library-folder.ts';
import { TemplateError } from '../library/naming.ts';
import { StoreVersionError } from '../store/migrations.ts';
import { StoreDiskError } from '../store/store-errors.ts';
import { StoreDamagedError } from '../store/store.ts';
import { AppError } from './app-error.ts';

/**
 * Anything a handler threw, as it may cross the contract: known errors keep their code and
 * message, anything else is `internal` (a bug, said plainly). Every message is scrubbed of
 * the key, whatever form it appears in.
 */
export function toApiError(error: unknown, secrets: ReadonlyArray<string | null>): ApiError {
  const known = classify(error);
  const message = redact(known.message, ...secrets);
  return known.details
    ? { code: known.code, message, details: scrub(known.details, secrets) }
    : { code: known.code, message };
}

function classify(error: unknown): ApiError {
  if (error instanceof AppError) {
    return error.details
      ? { code: error.code, message: error.message, details: error.details }
      : { code: error.code, message: error.message };
  }
  if (error instanceof PromptFileError) {
    return {
      code: 'prompt-file',
      message: error.message,
      details: { rows: error.errors, bad: error.bad },
    };
  }
  if (error instanceof PromptFileReadError) return { code: 'prompt-file', message: error.message };
  if (error instanceof TemplateError) return { code: 'invalid-argument', message: error.message };
  if (error instanceof StoreVersionError) return { code: 'store-version', message: error.message };
  if (error instanceof StoreDamagedError) return { code: 'store-damaged', message: error.message };
  if (
    error instanceof StoreDiskError ||
    error instanceof LibraryFolderError ||
    error instanceof OutsideLibraryError
  ) {
    return { code: 'disk', message: error.message };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message: `Atelier hit a bug: ${message}` };
}

function scrub(details: Record<string, unknown>, secrets: ReadonlyArray<string | null>) {
  return JSON.parse(redact(JSON.stringify(details), ...secrets)) as Record<string, unknown>;
}
