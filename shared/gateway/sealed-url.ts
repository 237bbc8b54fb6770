import { keyForms, keySpans, mergeSpans, normalizePercentEncoding } from './key-forms.ts';

/**
 * A result link may carry the key (`…/1.png?token=sk-…`), and it must be stored to be fetched
 * later. It is stored sealed: each form of the key replaced by a placeholder naming which form
 * it was and the origin the link was seen on, `(atelier-key:N:TAG)`; the download puts the key
 * back in memory, from the key in use, and only into a link on that same origin.
 *
 * A link that already holds placeholder text of its own (a hostile gateway's
 * `https://elsewhere.example/?sig=(atelier-key:0)`) has it escaped before sealing, so only
 * placeholders Atelier wrote are ever filled.
 */
const PLACEHOLDER = /\(atelier-key:(\d+):([0-9a-f]{8})\)/g;
/** Any text a placeholder starts with, Atelier's or the link's own. */
const PLACEHOLDER_START = /\(atelier-key/gi;
/** A find that is no form, even written another way: removed, and the link cannot be fetched. */
const UNSEALABLE = '(atelier-key)';

/** Drops `user:password@` before the host: credentials are never stored or printed. */
export function withoutCredentials(url: string): string {
  return url.replace(/^((?:[A-Za-z][A-Za-z0-9+.-]*:)?\/\/)?[^/?#]*@/, '$1');
}

/** The link to store: no credentials before the host, no form of `key` anywhere. */
export function sealKeyInUrl(url: string, key: string | null | undefined): string {
  // the link's own placeholder-like text can never be filled: `(` written as `%28`
  const bare = withoutCredentials(url).replace(
    PLACEHOLDER_START,
    (found) => `%28${found.slice(1)}`,
  );
  const forms = key ? keyForms(key) : null;
  if (!forms) return bare;
  const spans = mergeSpans(keySpans(bare, [forms]));
  if (spans.length === 0) return bare;
  const tag = originTag(bare);
  // a form written another way (`-` as `%2D`) is the same link once normalised (RFC 3986)
  const normal = forms.forms.map((form) => normalizePercentEncoding(form.text));
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    const found = bare.slice(start, end);
    let index = forms.forms.findIndex((form) => form.text === found);
    if (index < 0) index = normal.indexOf(normalizePercentEncoding(found));
    out +=
      bare.slice(at, start) + (index >= 0 && tag ? `(atelier-key:${index}:${tag})` : UNSEALABLE);
    at = end;
  }
  return out + bare.slice(at);
}

export function holdsSealedKey(url: string): boolean {
  return url.includes('(atelier-key:');
}

/**
 * The link as the gateway gave it, for the request only: never store or print the result.
 * Only placeholders sealed for the link's own origin are filled.
 */
export function unsealKeyInUrl(url: string, key: string): string {
  const forms = keyForms(key)?.forms ?? [];
  const tag = originTag(url);
  return url.replace(PLACEHOLDER, (placeholder, index: string, sealedFor: string) => {
    if (sealedFor !== tag) return placeholder;
    return forms[Number(index)]?.text ?? placeholder;
  });
}

/**
 * A short tag of the link's origin (scheme, host, port), written in each placeholder so the
 * key goes back only into a link on the origin it was seen on. Null when the origin cannot be
 * read, or itself held the key: such a link is never filled.
 */
function originTag(url: string): string | null {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return null;
  }
  if (origin === 'null' || origin.includes('atelier-key')) return null;
  // FNV-1a, 32 bits: a name for the origin, not a secret (the link is stored as it is)
  let hash = 0x811c9dc5;
  for (let i = 0; i < origin.length; i++) {
    hash ^= origin.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
