/**
 * Keys must never reach a log line, an error message or the renderer (interface 5.4).
 * `sk-` keys are recognised by shape; a key of another shape (other gateways) is removed
 * by value when the caller knows it.
 */
// (not inside a word: "task-failed", "disk-full" and "risk-free" are not keys)
const SK_KEY = /(?<![A-Za-z0-9])sk-[A-Za-z0-9._~+/=-]{3,}/g;
const BEARER = /(Bearer\s+)[^\s"',;()]+/gi;
/** Text without either marker needs no replacing: a cheap test, as this runs on every call. */
const MAY_HOLD_KEY = /sk-|bearer/i;

export const REDACTED = 'sk-…(redacted)';

export function redact(text: string, ...secrets: Array<string | null | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4 && out.includes(secret)) {
      out = out.split(secret).join(REDACTED);
    }
  }
  if (!MAY_HOLD_KEY.test(out)) return out;
  return out.replace(BEARER, `$1${REDACTED}`).replace(SK_KEY, REDACTED);
}
