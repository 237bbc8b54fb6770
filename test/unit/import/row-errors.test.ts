import { describe, expect, it } from 'vitest';
import { describeRowErrors, PromptFileError } from '../../../main/core/import/prompt-file.ts';

const NO_MODEL = 'no model: add a "model" column, or choose a model for the rows that give none';

describe('describeRowErrors', () => {
  it('lists a problem found once with its line', () => {
    expect(describeRowErrors([{ line: 3, message: 'n must be at least 1' }], 1)).toBe(
      '  line 3: n must be at least 1',
    );
  });

  it('makes one line of rows with the same problem, naming the first few', () => {
    const errors = Array.from({ length: 60 }, (_, i) => ({ line: i + 1, message: NO_MODEL }));
    expect(describeRowErrors(errors, 60)).toBe(`  lines 1, 2, 3, 4, 5 and 55 more: ${NO_MODEL}`);
  });

  it('keeps the problems in the order they first appear', () => {
    const errors = [
      { line: 2, message: 'B' },
      { line: 4, message: 'A' },
      { line: 7, message: 'B' },
    ];
    expect(describeRowErrors(errors, 3)).toBe('  lines 2, 7: B\n  line 4: A');
  });

  it('counts the rows it does not list: past twenty kinds of problem, or not collected', () => {
    const errors = Array.from({ length: 25 }, (_, i) => ({ line: i + 2, message: `problem ${i}` }));
    const text = describeRowErrors(errors, 1_500);
    expect(text.split('\n')).toHaveLength(21);
    expect(text.split('\n')[19]).toBe('  line 21: problem 19');
    expect(text.split('\n')[20]).toBe('  … and 1,480 more bad rows');
  });
});

describe('PromptFileError', () => {
  it('says nothing was imported and what is wrong', () => {
    const error = new PromptFileError(
      'p.txt',
      [{ line: 1, code: 'no-model', message: NO_MODEL }],
      1,
    );
    expect(error.message).toBe(
      `p.txt has 1 bad row; nothing was imported. Fix it and try again:\n  line 1: ${NO_MODEL}`,
    );
  });
});
