import { isAscii, truncateUtf8 } from './utf8.ts';

export const SLUG_MAX_BYTES = 48;

/** A prompt's start as a file-name-friendly slug; letters of every script are kept. */
export function slugify(text: string, maxBytes = SLUG_MAX_BYTES): string {
  // only the start can show; skip normalising a long prompt whole
  const head = text.slice(0, maxBytes * 4);
  const slug = isAscii(head)
    ? asciiSlug(head.toLowerCase(), maxBytes)
    : head
        .normalize('NFC')
        .toLowerCase()
        .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
        .replace(/^-+/, '');
  const cut = truncateUtf8(slug, maxBytes);
  return cut.endsWith('-') ? cut.replace(/-+$/, '') : cut;
}

/**
 * The slug of lower-case ASCII (most prompts), as the Unicode regexes above would make it: NFC
 * changes nothing and the only letters and digits are a-z and 0-9. A loop (faster than the
 * regexes) that stops once more than maxBytes are written: truncateUtf8 cuts the rest anyway.
 */
function asciiSlug(text: string, maxBytes: number): string {
  let slug = '';
  let word = -1; // where the current run of letters and digits started
  for (let i = 0; i < text.length && !(slug.length > maxBytes); i++) {
    const code = text.charCodeAt(i);
    if ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)) {
      if (word < 0) word = i;
    } else if (word >= 0) {
      slug += `${text.slice(word, i)}-`;
      word = -1;
    }
  }
  return word >= 0 ? slug + text.slice(word) : slug;
}
