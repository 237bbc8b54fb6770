import { keyForms, keySpans, type KeyForms } from '../../shared/gateway/key-forms.ts';
import { redactSpans } from '../../shared/gateway/redact.ts';
import { failure } from './http-status.ts';

/**
 * Defence in depth: whatever a handler, an error or an event carries, a secret (the API key)
 * never leaves the web host. A bug elsewhere costs a marker in a string, not the key.
 */
export interface Redactor {
  /** JSON text of `value`, every secret in its strings replaced by a marker. */
  json(value: unknown, text?: string): string;
  /** `text` with every secret replaced by a marker. */
  text(text: string): string;
  /** JSON bodies that held a secret so far (the host logs it: it is a bug to fix). */
  readonly hits: number;
}

export const noRedaction: Redactor = {
  json: (value, text) => text ?? JSON.stringify(value) ?? 'null',
  text: (text) => text,
  hits: 0,
};

export function redactorFor(secrets: readonly string[]): Redactor {
  const plain = secrets.map((secret) => keyForms(secret)).filter(isForms);
  if (plain.length === 0) return noRedaction;
  // in JSON text a key with `"` or `\` appears escaped: look for that form as well
  const escaped = secrets
    .map((secret) => JSON.stringify(secret).slice(1, -1))
    .filter((inner, i) => inner !== secrets[i])
    .map((inner) => keyForms(inner))
    .filter(isForms);
  const inJson = [...plain, ...escaped];
  let hits = 0;
  const scrubText = (text: string): string => redactSpans(text, keySpans(text, plain));
  const scrub = (value: unknown): unknown => {
    if (typeof value === 'string') return scrubText(value);
    if (Array.isArray(value)) return value.map(scrub);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([key, inner]) => [scrubText(key), scrub(inner)]),
      );
    }
    return value;
  };
  return {
    json(value, text = JSON.stringify(value) ?? 'null') {
      if (keySpans(text, inJson).length === 0) return text; // the usual case: one scan, no copy
      hits++;
      const scrubbed = JSON.stringify(scrub(value)) ?? 'null';
      if (keySpans(scrubbed, inJson).length === 0) return scrubbed;
      return JSON.stringify(failure('internal', 'The response was withheld: it held a secret.'));
    },
    text: scrubText,
    get hits() {
      return hits;
    },
  };
}

function isForms(forms: KeyForms | null): forms is KeyForms {
  return forms !== null;
}
