import { describe, expect, it } from 'vitest';
import {
  expandPrompts,
  expandTemplate,
  parseTemplate,
  valuesOf,
} from '../../../renderer/src/screens/compose/template.ts';

const expand = (text: string, vars = {}) => {
  const parsed = parseTemplate(text);
  if ('problem' in parsed) throw new Error(parsed.problem.message);
  return expandTemplate(parsed.segments, vars);
};

describe('templates', () => {
  it('expands every combination of wildcard lists, the last varying fastest', () => {
    expect(expand('a {red|blue} {fox|owl}')).toEqual([
      'a red fox',
      'a red owl',
      'a blue fox',
      'a blue owl',
    ]);
  });

  it('fills a named variable from its values, the same value at each use', () => {
    expect(
      expand('{subject} and another {subject}, {day|night}', { subject: ['fox', 'owl'] }),
    ).toEqual([
      'fox and another fox, day',
      'fox and another fox, night',
      'owl and another owl, day',
      'owl and another owl, night',
    ]);
  });

  it('keeps escaped braces and bars literal', () => {
    expect(expand('a \\{literal\\} \\| {x|y}')).toEqual(['a {literal} | x', 'a {literal} | y']);
  });

  it('an empty option leaves the word out without a double space', () => {
    expect(expand('a {|big} fox')).toEqual(['a fox', 'a big fox']);
  });

  it('says where a brace is unclosed, stray, or nested', () => {
    expect(parseTemplate('a {red|blue fox')).toEqual({
      problem: { offset: 2, message: expect.stringContaining('never closed') },
    });
    expect(parseTemplate('a red} fox')).toEqual({
      problem: { offset: 5, message: expect.stringContaining('without an opening one') },
    });
    expect(parseTemplate('{a|{b}}')).toEqual({
      problem: { offset: 3, message: expect.stringContaining('cannot be nested') },
    });
    expect(parseTemplate('a {big red}')).toEqual({
      problem: { offset: 2, message: expect.stringContaining('neither a list') },
    });
  });

  it('places errors by line and column of the whole text, and names unknown variables', () => {
    const result = expandPrompts('a fox\n  an {owl|cat\nthe {subject}', 'line', {}, 1000);
    expect(result.prompts).toEqual([]);
    expect(result.errors).toEqual([
      { line: 2, column: 6, message: expect.stringContaining('never closed') },
      { line: 3, column: 5, message: 'unknown variable {subject}' },
    ]);
    expect(result.variables).toEqual(['subject']);
  });

  it('places an error in a multi-line paragraph on its own line', () => {
    const result = expandPrompts('a fox\nin the {snow', 'paragraph', {}, 1000);
    expect(result.errors).toEqual([
      { line: 2, column: 8, message: expect.stringContaining('never closed') },
    ]);
  });

  it('counts past the limit without expanding', () => {
    const text = '{a|b|c|d|e|f|g|h|i|j} {a|b|c|d|e|f|g|h|i|j} {a|b|c|d|e|f|g|h|i|j}';
    const result = expandPrompts(text, 'line', {}, 500);
    expect(result.count).toBe(1000);
    expect(result.prompts).toEqual([]);
    expect(expandPrompts(text, 'line', {}, 1000).prompts).toHaveLength(1000);
  });

  it('a variable with no values is an error, values come one per line', () => {
    expect(valuesOf(' fox \n\nowl\n')).toEqual(['fox', 'owl']);
    const empty = expandPrompts('{subject}', 'line', { subject: [] }, 10);
    expect(empty.errors[0]?.message).toContain('has no values');
  });
});
