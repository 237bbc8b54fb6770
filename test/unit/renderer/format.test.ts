import { describe, expect, it } from 'vitest';
import { countOf, formatRate, plural } from '../../../renderer/src/format.ts';

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

describe('plural', () => {
  it('says the exact number, past a million too', () => {
    expect(plural(1, 'job')).toBe('1 job');
    expect(plural(1_234_567, 'image')).toBe('1,234,567 images');
    expect(plural(2, 'copy', 'copies')).toBe('2 copies');
  });
});

describe('formatRate', () => {
  it('says jobs per minute at every speed, so two rates on one screen compare', () => {
    expect(formatRate(0)).toBe('—');
    expect(formatRate(0.075)).toBe('4.5/min');
    expect(formatRate(0.8)).toBe('48/min');
    expect(formatRate(1.2)).toBe('72/min');
    expect(formatRate(150)).toBe('9,000/min');
  });
});
