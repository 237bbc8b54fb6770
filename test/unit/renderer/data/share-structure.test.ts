import { describe, expect, it } from 'vitest';
import { shareStructure } from '../../../../renderer/src/data/share-structure.ts';

const list = <E extends object>(ids: number[], extra = {} as E) => ({
  ids,
  total: ids.length,
  complete: true,
  ...extra,
});

describe('shareStructure', () => {
  it('keeps the old list when the new one is equal, so nothing renders again', () => {
    const old = list([3, 2, 1], { groups: [{ key: 'a', count: 3 }] });
    expect(shareStructure(old, list([3, 2, 1], { groups: [{ key: 'a', count: 3 }] }))).toBe(old);
  });

  it('takes the new ids when they differ, keeping the rest that did not change', () => {
    const old = list([3, 2, 1], { groups: [{ key: 'a', count: 3 }] });
    const next = list([4, 3, 2, 1], { groups: [{ key: 'a', count: 3 }] });
    const shared = shareStructure(old, next) as typeof next;
    expect(shared).toEqual(next);
    expect(shared.ids).toBe(next.ids);
    expect(shared.groups).toBe(old.groups);
  });

  it('keeps the old ids when only another field changed', () => {
    const old = list([3, 2, 1], { written: 0 });
    const shared = shareStructure(old, list([3, 2, 1], { written: 2 })) as typeof old;
    expect(shared).toEqual(list([3, 2, 1], { written: 2 }));
    expect(shared.ids).toBe(old.ids);
  });

  it('shares anything else as TanStack Query does', () => {
    const old = { name: 'a', tags: ['x'] };
    expect(shareStructure(old, { name: 'a', tags: ['x'] })).toBe(old);
    const next = { name: 'b', tags: ['x'] };
    const shared = shareStructure(old, next) as typeof next;
    expect(shared).toEqual(next);
    expect(shared.tags).toBe(old.tags);
    expect(shareStructure(undefined, next)).toBe(next);
    expect(shareStructure([1, 2], [1, 2, 3])).toEqual([1, 2, 3]);
  });
});
