import { describe, expect, it } from 'vitest';
import { createRandom, seedFrom } from '../../../main/simulator/random.ts';

describe('seedFrom', () => {
  it('gives the same seed for the same values, and a 32-bit unsigned integer', () => {
    const seed = seedFrom('a lighthouse at dusk', 42, 1, '{}', '');
    expect(seedFrom('a lighthouse at dusk', 42, 1, '{}', '')).toBe(seed);
    expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32).toBe(true);
  });

  it('tells apart values that differ by one character, or only in where they are split', () => {
    const seeds = new Set<number>();
    for (let i = 0; i < 20_000; i++) seeds.add(seedFrom(`a lighthouse at dusk, study ${i}`, i));
    // 20,000 draws from 2^32 values collide about 0.05 times on average
    expect(seeds.size).toBeGreaterThanOrEqual(19_999);
    expect(seedFrom('ab', 'c')).not.toBe(seedFrom('a', 'bc'));
  });

  it('spreads nearby inputs over the whole range (each bit set about half the time)', () => {
    const ones = new Array<number>(32).fill(0);
    const n = 4_000;
    for (let i = 0; i < n; i++) {
      const seed = seedFrom('image-seeds', i);
      for (let bit = 0; bit < 32; bit++) ones[bit]! += (seed >>> bit) & 1;
    }
    for (const count of ones) expect(Math.abs(count / n - 0.5)).toBeLessThan(0.05);
  });
});

describe('createRandom', () => {
  it('repeats its sequence for the same seed and stays in [0, 1)', () => {
    const a = createRandom(7);
    const b = createRandom(7);
    for (let i = 0; i < 1_000; i++) {
      const value = a();
      expect(value).toBe(b());
      expect(value >= 0 && value < 1).toBe(true);
    }
  });
});
