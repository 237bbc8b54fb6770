import { describe, expect, it } from 'vitest';
import {
  splitPrompts,
  suggestSplitMode,
} from '../../../renderer/src/screens/compose/split-prompts.ts';

describe('pasted text to prompts', () => {
  it('by line: every non-empty line, trimmed, with where it starts', () => {
    expect(splitPrompts('  a fox\n\nan owl\r\n', 'line')).toEqual([
      { text: 'a fox', line: 1, column: 3 },
      { text: 'an owl', line: 3, column: 1 },
    ]);
  });

  it('by paragraph: blocks between blank lines keep their line breaks', () => {
    const text = 'a fox\nin the snow\n\n \n\nan owl';
    expect(splitPrompts(text, 'paragraph').map((p) => [p.text, p.line])).toEqual([
      ['a fox\nin the snow', 1],
      ['an owl', 6],
    ]);
  });

  it('suggests paragraphs only for blank-line-separated multi-line blocks', () => {
    expect(suggestSplitMode('a\nb\nc')).toBe('line');
    expect(suggestSplitMode('a\n\nb\n\nc')).toBe('line');
    expect(suggestSplitMode('a fox\nin snow\n\nan owl')).toBe('paragraph');
  });
});
