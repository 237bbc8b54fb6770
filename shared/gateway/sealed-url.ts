import { keyForms, keySpans, mergeSpans } from './key-forms.ts';

/**
 * A result link may carry the key (`…/1.png?token=sk-…`), and it must be stored to be fetched
 * later. It is stored sealed: each form of the key replaced by a placeholder naming which form
 * it was, `(atelier-key:N)`; the download puts the key back in memory, from the key in use.
 */
const PLACEHOLDER = /\(atelier-key:(\d+)\)/g;
/** A find that is no exact form (mixed case…): removed, and the link cannot be fetched. */
const UNSEALABLE = '(atelier-key)';

/** Drops `user:password@` before the host: credentials are never stored or printed. */
export function withoutCredentials(url: string): string {
  return url.replace(/^((?:[A-Za-z][A-Za-z0-9+.-]*:)?\/\/)?[^/?#]*@/, '$1');
}

/** The link to store: no credentials before the host, no form of `key` anywhere. */
export function sealKeyInUrl(url: string, key: string | null | undefined): string {
  const bare = withoutCredentials(url);
  const forms = key ? keyForms(key) : null;
  if (!forms) return bare;
  const spans = mergeSpans(keySpans(bare, [forms]));
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    const found = bare.slice(start, end);
    const index = forms.forms.findIndex((form) => form.text === found);
    out += bare.slice(at, start) + (index >= 0 ? `(atelier-key:${index})` : UNSEALABLE);
    at = end;
  }
  return out + bare.slice(at);
}

export function holdsSealedKey(url: string): boolean {
  return url.includes('(atelier-key:');
}

/** The link as the gateway gave it, for the request only: never store or print the result. */
export function unsealKeyInUrl(url: string, key: string): string {
  const forms = keyForms(key)?.forms ?? [];
  return url.replace(PLACEHOLDER, (placeholder, index: string) => {
    return forms[Number(index)]?.text ?? placeholder;
  });
}
