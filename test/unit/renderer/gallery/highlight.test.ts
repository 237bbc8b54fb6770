import { describe, expect, it } from 'vitest';
import { highlight, searchTerms } from '../../../../renderer/src/screens/gallery/highlight.ts';

const marked = (text: string, search: string) =>
  highlight(text, searchTerms(search))
    .filter((s) => s.match)
    .map((s) => s.text);

describe('search highlights', () => {
  it('marks whole words, the last typed one as a prefix, whatever the case', () => {
    expect(marked('A Red fox and a redder foxglove', 'red fox')).toEqual([
      'Red',
      'fox',
      'foxglove',
    ]);
  });

  it('marks words without their accents, as the index folds them', () => {
    expect(marked('Café crème au lait', 'cafe creme')).toEqual(['Café', 'crème']);
  });

  it('reads quotes and operators as the service does: plain words', () => {
    expect(searchTerms('"red fox" OR')).toEqual([
      { word: 'red', prefix: false },
      { word: 'fox', prefix: false },
      { word: 'or', prefix: true },
    ]);
  });

  it('keeps the text whole: the pieces join back to it', () => {
    const text = 'neon—city, at night! 東京 fox';
    const pieces = highlight(text, searchTerms('city fox'));
    expect(pieces.map((p) => p.text).join('')).toBe(text);
    expect(highlight(text, [])).toEqual([{ text, match: false }]);
  });
});
