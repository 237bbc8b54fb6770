/** A piece of text, marked when it matched the search. */
export interface Segment {
  text: string;
  match: boolean;
}

/**
 * The words a search matches, as the service reads the box (main/core/store/fts-query.ts):
 * every word must appear, the last as a prefix so results follow the typing; no operators.
 */
export function searchTerms(search: string): Array<{ word: string; prefix: boolean }> {
  const words = fold(search).match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.map((word, i) => ({ word, prefix: i === words.length - 1 }));
}

/**
 * Splits text into marked and unmarked pieces: whole words equal to a term (or starting with
 * a prefix term), case-insensitive, as the tokenizer split them. No terms: one unmarked piece.
 */
export function highlight(text: string, terms: ReturnType<typeof searchTerms>): Segment[] {
  if (terms.length === 0 || text === '') return [{ text, match: false }];
  const segments: Segment[] = [];
  let plain = '';
  for (const part of text.split(/([\p{L}\p{N}\p{M}]+)/u)) {
    if (part === '') continue;
    const lower = fold(part);
    const hit = terms.some((t) => (t.prefix ? lower.startsWith(t.word) : lower === t.word));
    if (!hit) {
      plain += part;
      continue;
    }
    if (plain) segments.push({ text: plain, match: false });
    plain = '';
    segments.push({ text: part, match: true });
  }
  if (plain) segments.push({ text: plain, match: false });
  return segments;
}

/** Lower case without accents, as the index's tokenizer (unicode61 remove_diacritics) sees it. */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}
