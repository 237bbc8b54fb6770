import { describe, expect, it } from 'vitest';
import { countOf } from '../../../renderer/src/format.ts';

describe('countOf', () => {
  it.each([
    [0, 'image', '0 images'],
    [1, 'image', '1 image'],
    [2400, 'image', '2,400 images'],
    [1_234_567, 'image', '1.2M images'],
    [1, 'new image', '1 new image'],
    [3, 'new image', '3 new images'],
  ])('%i %s: %s', (n, one, said) => {
    expect(countOf(n, one)).toBe(said);
  });
});
