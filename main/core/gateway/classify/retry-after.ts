import { header, type HeaderBag } from './headers.ts';

/**
 * How long the gateway asks to wait, from `retry-after-ms` (milliseconds, preferred: it is
 * the more precise) or `Retry-After` (seconds or an HTTP date). Capped at `capMs` so a wrong
 * header cannot stall the queue for hours. Null when neither header says anything usable.
 */
export function retryAfterMs(headers: HeaderBag | undefined, nowMs: number, capMs: number) {
  const wait =
    fromMilliseconds(header(headers, 'retry-after-ms')) ??
    fromRetryAfter(header(headers, 'retry-after'), nowMs);
  return wait === null ? null : Math.min(wait, capMs);
}

function fromMilliseconds(value: string | null): number | null {
  if (value === null || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return null;
  return Math.ceil(Number(value));
}

function fromRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.ceil(Number(value) * 1000);
  // An HTTP date must name a weekday or month; a bare number-like string is not a date.
  if (!/[A-Za-z]/.test(value)) return null;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}
