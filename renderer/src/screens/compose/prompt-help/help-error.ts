import type { ApiErrorCode } from '../../../../../shared/api/errors.ts';

/**
 * A prompt-help failure in the window's words: the service's message (what the gateway said
 * and what to do there), and where in this window to do it when the service cannot say.
 */
export function helpErrorText(error: { code: ApiErrorCode | null; message: string }): string {
  if (error.code === 'key-missing') {
    return `${error.message} Set it in Settings › Gateway & key, then ask again.`;
  }
  return error.message;
}

/** How many prompts, as typed: 1–100, or null. */
export function parseCount(text: string, most = 100): number | null {
  const value = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  return Number.isInteger(value) && value >= 1 && value <= most ? value : null;
}
