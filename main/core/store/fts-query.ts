/**
 * Turns what a person types in the gallery's search box into a safe FTS5 query: every word
 * must appear (in any order), the last one as a prefix so results follow the typing.
 * FTS5 syntax in the input (quotes, AND, NEAR, column filters) is treated as plain text.
 * Returns null when there is nothing to search for.
 */
export function toFtsQuery(text: string): string | null {
  const words = text
    .normalize('NFC')
    .split(/[\s"]+/u)
    .filter((word) => /[\p{L}\p{N}]/u.test(word));
  if (words.length === 0) return null;
  return words.map((word, i) => `"${word}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}
