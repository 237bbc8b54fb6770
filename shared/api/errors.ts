import { z } from 'zod';
import { lazy } from './define.ts';

/**
 * Errors cross the contract as a code and a message: a class does not survive IPC or JSON.
 * Messages are host-neutral; each host adds its own advice ("check the key in Settings").
 */
export const API_ERROR_CODES = [
  'invalid-argument', // the input failed the contract's schema or a rule of the method
  'not-found', // the batch, job or image does not exist (any more)
  'conflict', // the thing is in a state that refuses the change
  'busy', // another Atelier process runs this data folder's queue
  'key-missing', // no API key for the gateway
  'key-invalid', // the key has the wrong shape
  'encryption-unavailable', // the desktop cannot store the key safely here
  'gateway-unreachable', // the gateway did not answer
  'gateway-error', // the gateway refused or failed a call (details: kind, status, code, requestId)
  'settings-invalid', // a settings or models file, or a settings change, is not valid
  'library-busy', // the library cannot move while images are being written
  'prompt-file', // a prompt file or pasted prompts have errors (details.rows)
  'confirmation-required', // the work spends past the threshold: confirm it (details.spend)
  'store-version', // the database was written by a newer Atelier
  'store-damaged', // the database cannot be read
  'disk', // the data folder or library refused a write
  'unsupported', // this host cannot do that (reveal in folder from the CLI)
  'unauthorized', // the web host's token is missing or wrong
  'forbidden', // the caller is not our renderer
  'internal', // a bug: the message says what happened
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

export const ApiErrorSchema = lazy(() =>
  z.object({
    code: z.enum(API_ERROR_CODES),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
);
export type ApiError = z.infer<typeof ApiErrorSchema>;

/** What both transports carry: a value, or an error as data. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ApiError };
