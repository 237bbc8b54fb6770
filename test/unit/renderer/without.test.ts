import { describe, expect, it } from 'vitest';
import { without } from '../../../renderer/src/store/without.ts';

describe('without', () => {
  it('copies a map or a set less the ids', () => {
    const map = new Map([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
    ]);
    const less = without(map, [2, 9]);
    expect([...less]).toEqual([
      [1, 'a'],
      [3, 'c'],
    ]);
    expect(map.size).toBe(3);
    const set = new Set([1, 2, 3]);
    expect([...without(set, [1, 3])]).toEqual([2]);
    expect(set.size).toBe(3);
  });

  it('gives back the same object when none of the ids is in it', () => {
    const map = new Map([[1, 'a']]);
    const set = new Set([1]);
    expect(without(map, [2, 3])).toBe(map);
    expect(without(set, [])).toBe(set);
  });
});
