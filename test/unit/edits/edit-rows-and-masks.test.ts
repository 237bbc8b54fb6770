import { describe, expect, it } from 'vitest';
import { editPairs, promptLines } from '../../../shared/edits/edit-rows.ts';
import {
  aspectText,
  editablePixels,
  hardMask,
  KEEP_FROM_ALPHA,
  maskFit,
} from '../../../main/core/edits/mask-pixels.ts';

describe('prompts, one a line', () => {
  it('keeps each non-blank line with its line number, trimmed', () => {
    expect(promptLines('  a red hat \r\n\n\tblue sky\rlast')).toEqual([
      { line: 1, prompt: 'a red hat' },
      { line: 3, prompt: 'blue sky' },
      { line: 4, prompt: 'last' },
    ]);
    expect(promptLines(' \n \n')).toEqual([]);
  });
});

describe('pictures and prompts paired as jobs', () => {
  it('one picture with several prompts: a job per prompt', () => {
    expect(editPairs(1, 3)).toEqual({
      ok: true,
      pairs: [
        { picture: 0, prompt: 0 },
        { picture: 0, prompt: 1 },
        { picture: 0, prompt: 2 },
      ],
    });
  });

  it('several pictures with one prompt: a job per picture', () => {
    const shape = editPairs(3, 1);
    expect(shape.ok && shape.pairs.map((pair) => pair.picture)).toEqual([0, 1, 2]);
  });

  it.each([
    [0, 1, 'Choose a picture'],
    [2, 0, 'Write a prompt'],
    [2, 3, '2 pictures and 3 prompts'],
  ])('refuses %i picture(s) with %i prompt(s)', (pictures, prompts, message) => {
    const shape = editPairs(pictures, prompts);
    expect(shape.ok).toBe(false);
    expect(!shape.ok && shape.message).toContain(message);
  });
});

describe('masks', () => {
  it('are cut hard at half alpha, black everywhere, and count what may change', () => {
    const alpha = Uint8Array.from([0, KEEP_FROM_ALPHA - 1, KEEP_FROM_ALPHA, 255, 40]);
    const mask = hardMask(alpha);
    expect(mask).toMatchObject({ edited: 3, total: 5 });
    expect(editablePixels(alpha)).toBe(3);
    const pixels = [...mask.rgba];
    expect(pixels.filter((_, i) => i % 4 !== 3).every((value) => value === 0)).toBe(true);
    expect(pixels.filter((_, i) => i % 4 === 3)).toEqual([0, 0, 255, 255, 0]);
  });

  it('fit a picture of their size exactly, scale to the same shape, stretch to another with its ratios named', () => {
    expect(maskFit({ width: 800, height: 600 }, { width: 800, height: 600 })).toEqual({
      kind: 'exact',
    });
    expect(maskFit({ width: 800, height: 600 }, { width: 1600, height: 1200 })).toEqual({
      kind: 'scaled',
    });
    // rounding of a side by a pixel is the same shape
    expect(maskFit({ width: 1024, height: 683 }, { width: 3000, height: 2000 })).toEqual({
      kind: 'scaled',
    });
    expect(maskFit({ width: 1000, height: 1000 }, { width: 1600, height: 900 })).toEqual({
      kind: 'stretched',
      mask: '1:1',
      picture: '16:9',
    });
  });

  it('name ratios plainly, or to two decimals when no small ratio fits', () => {
    expect(aspectText({ width: 1920, height: 1080 })).toBe('16:9');
    expect(aspectText({ width: 1000, height: 541 })).toBe('1.85:1');
    expect(aspectText({ width: 541, height: 1000 })).toBe('1:1.85');
  });
});
