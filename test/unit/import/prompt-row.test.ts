import { describe, expect, it } from 'vitest';
import { toPromptRow } from '../../../main/core/import/prompt-row.ts';

describe('toPromptRow', () => {
  it('makes of a lone prompt (a .txt line) the row the schema makes of it', () => {
    for (const prompt of [
      'a fox',
      '  a fox\t',
      '\u00a0a fox\u3000',
      'x',
      ' \u2003',
      '',
      'a\u0000b',
    ]) {
      // (a blank column beside it: the schema's way, which the lone prompt does not take)
      const bySchema = toPromptRow({ prompt, model: '' }, 7);
      expect(toPromptRow({ prompt }, 7), JSON.stringify(prompt)).toEqual(bySchema);
    }
    expect(toPromptRow({ prompt: ' a fox ' }, 7)).toEqual({
      row: { line: 7, prompt: 'a fox', extra: {} },
    });
  });

  it('keeps known columns typed and the rest as extra fields', () => {
    const result = toPromptRow(
      {
        prompt: ' a red fox ',
        n: '2',
        seed: '42',
        output_format: 'WEBP',
        size: '512x512',
        guidance_scale: '7',
        style: '',
      },
      3,
    );
    expect(result).toEqual({
      row: {
        line: 3,
        prompt: 'a red fox',
        n: 2,
        seed: 42,
        output_format: 'webp',
        size: '512x512',
        extra: { guidance_scale: '7' },
      },
    });
  });

  it('treats blank optional cells as not given', () => {
    expect(toPromptRow({ prompt: 'x', n: '', seed: ' ', model: '' }, 1)).toEqual({
      row: { line: 1, prompt: 'x', extra: {} },
    });
  });

  it('accepts JSON numbers as they are', () => {
    expect(toPromptRow({ prompt: 'x', n: 3, seed: 4294967295 }, 1)).toMatchObject({
      row: { n: 3, seed: 4294967295 },
    });
  });

  it.each([
    [{ prompt: '' }, /prompt the prompt is empty|prompt.*missing/],
    [{ model: 'm' }, /prompt the prompt is missing/],
    [{ prompt: 'x', n: 'two' }, /^n must be a whole number from 1/],
    [{ prompt: 'x', n: '0' }, /^n must be at least 1/],
    [{ prompt: 'x', seed: '-1' }, /^seed must be at least 0/],
    [{ prompt: 'x', seed: '4294967296' }, /^seed must be at most 4294967295/],
    [{ prompt: 'x', n: 1.5 }, /^n must be a whole number/],
    [{ prompt: 'x', output_format: 'gif' }, /^output_format must be png, jpeg or webp/],
  ])('reports %j with the field and the reason', (record, message) => {
    const result = toPromptRow(record, 7);
    expect('error' in result).toBe(true);
    if ('error' in result) {
      expect(result.error.line).toBe(7);
      expect(result.error.message).toMatch(message);
    }
  });
});
