import { keyForms, keySpans, mergeSpans } from './key-forms.ts';

/**
 * Keys must never reach a log line, an error message or the renderer (interface 5.4).
 * `sk-` keys are recognised by shape; a key the caller names is removed in every form a
 * gateway may echo it in (see key-forms.ts), whatever its shape.
 */
// (not inside a word: "task-failed", "disk-full" and "risk-free" are not keys)
// (nor a full stop that ends the sentence around a key: "sent with Bearer sk-….")
const SK_KEY = /(?<![A-Za-z0-9])sk-[A-Za-z0-9._~+/=-]{2,}[A-Za-z0-9_~+/=-]/g;
const BEARER = /(Bearer\s+)[^\s"',;()]*[^\s"',;().]/gi;
/** Text without either marker needs no looking by shape: a cheap test, as this runs on every call. */
const MAY_HOLD_KEY = /sk-|bearer/i;

export const REDACTED = 'sk-…(redacted)';

export function redact(text: string, ...secrets: Array<string | null | undefined>): string {
  const spans = keySpans(
    text,
    secrets.map((secret) => (secret ? keyForms(secret) : null)),
  );
  if (MAY_HOLD_KEY.test(text)) {
    for (const match of text.matchAll(SK_KEY)) {
      spans.push([match.index, match.index + match[0].length]);
    }
    for (const match of text.matchAll(BEARER)) {
      spans.push([match.index + match[1]!.length, match.index + match[0].length]);
    }
  }
  return redactSpans(text, spans);
}

/** Each span of `text` becomes the marker; overlapping finds (the key, its base64…) one marker. */
export function redactSpans(text: string, spans: Array<[number, number]>): string {
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [start, end] of mergeSpans(spans)) {
    out += text.slice(at, start) + REDACTED;
    at = end;
  }
  return out + text.slice(at);
}
