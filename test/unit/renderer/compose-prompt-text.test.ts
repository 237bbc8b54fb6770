import { describe, expect, it } from 'vitest';
import {
  appendPrompts,
  placeResult,
  promptAtCaret,
} from '../../../renderer/src/screens/compose/prompt-help/prompt-text.ts';
import {
  seenOf,
  suggestionRows,
} from '../../../renderer/src/screens/compose/prompt-help/suggestions.ts';

describe('the prompt at the caret', () => {
  const text = 'a red fox\n\nan old tram\nat dusk';
  it('is its line, or its paragraph; none on a blank line', () => {
    expect(promptAtCaret(text, 3, 'line')).toMatchObject({ text: 'a red fox', line: 1, start: 0 });
    expect(promptAtCaret(text, 10, 'line')).toBe(null);
    expect(promptAtCaret(text, text.length, 'line')).toMatchObject({ text: 'at dusk', line: 4 });
    expect(promptAtCaret(text, text.length, 'paragraph')).toMatchObject({
      text: 'an old tram\nat dusk',
      line: 3,
    });
  });
});

describe('prompts put into the box', () => {
  it('go after what is there, literal (template marks escaped), one per line or paragraph', () => {
    expect(appendPrompts('a fox\n', ['a {red} owl', 'two\nlines'], 'line')).toBe(
      'a fox\na \\{red\\} owl\ntwo lines',
    );
    expect(appendPrompts('', ['one', 'two\n\nparts'], 'paragraph')).toBe('one\n\ntwo\nparts');
    expect(appendPrompts('kept', ['  '], 'line')).toBe('kept');
  });

  it('replace the prompt expanded, or follow the prompt varied, even if it moved meanwhile', () => {
    const source = promptAtCaret('a fox\nan owl', 8, 'line')!;
    expect(placeResult('a fox\nan owl', source, 'expand', ['an owl at night'], 'line')).toEqual({
      text: 'a fox\nan owl at night',
      placed: 'in-place',
    });
    expect(placeResult('a fox\nan owl', source, 'vary', ['owl 1', 'owl 2'], 'line')).toEqual({
      text: 'a fox\nan owl\nowl 1\nowl 2',
      placed: 'in-place',
    });
    // a line typed above it while the model wrote
    expect(
      placeResult('new\na fox\nan owl', source, 'expand', ['an owl at night'], 'line'),
    ).toEqual({ text: 'new\na fox\nan owl at night', placed: 'moved' });
    // the prompt itself gone: the answer is added at the end
    expect(placeResult('a fox', source, 'expand', ['an owl at night'], 'line')).toEqual({
      text: 'a fox\nan owl at night',
      placed: 'appended',
    });
  });
});

describe('the suggested rows', () => {
  it('are those kept, then the streaming request as edited; all they showed is not asked again', () => {
    const help = {
      id: 'r2',
      prompts: [
        { index: 0, text: 'a kite', note: null },
        { index: 1, text: 'a tram', note: 'Cut to 6 characters' },
      ],
    };
    const kept = [
      { key: 'r1:0', text: 'a fox, edited', written: 'a fox', note: null, ticked: true },
    ];
    const rows = suggestionRows(kept, help as never, { 1: { text: 'a blue tram', ticked: true } });
    expect(rows.map((r) => [r.key, r.text, r.ticked])).toEqual([
      ['r1:0', 'a fox, edited', true],
      ['r2:0', 'a kite', false],
      ['r2:1', 'a blue tram', true],
    ]);
    expect(seenOf(rows)).toEqual(['a fox, edited', 'a fox', 'a kite', 'a blue tram', 'a tram']);
  });
});
