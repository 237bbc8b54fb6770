import type { z } from 'zod';
import { ApiRequestError } from './api-request-error.ts';
import type { SpendCheck } from './schemas/spend.ts';

export type SpendCheckValue = z.infer<typeof SpendCheck>;

/**
 * The estimate a `confirmation-required` refusal carries (the work would spend past the
 * threshold without the person's confirmation); null for any other error.
 */
export function confirmationAsked(error: unknown): SpendCheckValue | null {
  if (!(error instanceof ApiRequestError) || error.code !== 'confirmation-required') return null;
  return (error.details?.['spend'] as SpendCheckValue | undefined) ?? null;
}
