import { describe, expect, it } from 'vitest';
import { parseThumbnailSizes } from '../../../shared/api/thumbnail-bundle.ts';

describe('parseThumbnailSizes', () => {
  it('reads sizes, missing images and thumbnails not made yet, in order', () => {
    expect(parseThumbnailSizes('10,-,0,?,7', 5)).toEqual([
      { kind: 'bytes', size: 10 },
      { kind: 'missing' },
      { kind: 'bytes', size: 0 },
      { kind: 'separate' },
      { kind: 'bytes', size: 7 },
    ]);
  });

  it.each([
    [null, 1],
    ['', 1],
    ['10,20', 3], // fewer than asked
    ['10,x', 2],
    ['1.5', 1],
    ['-1', 1],
    ['10,,20', 3],
  ])('refuses %j for %i paths', (header, expected) => {
    expect(parseThumbnailSizes(header, expected)).toBeNull();
  });
});
