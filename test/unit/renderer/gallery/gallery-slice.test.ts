import { describe, expect, it } from 'vitest';
import { newerOnTop } from '../../../../renderer/src/store/gallery-slice.ts';

describe('new images on top of a loaded list', () => {
  const old = [9, 8, 7, 6, 5, 4, 3, 2, 1];
  it('puts the newer ids above the loaded ones, keeping them', () => {
    expect(newerOnTop(old, { ids: [11, 10, 9, 8, 7], total: 11 })).toEqual([11, 10, ...old]);
  });

  it('asks for a full reload when anything else changed', () => {
    // one deleted below
    expect(newerOnTop(old, { ids: [11, 10, 9, 8, 6], total: 10 })).toBeNull();
    // the total says more changed than the page shows
    expect(newerOnTop(old, { ids: [11, 10, 9, 8, 7], total: 12 })).toBeNull();
    // the old first is gone
    expect(newerOnTop(old, { ids: [11, 10, 8, 7], total: 10 })).toBeNull();
    // nothing new
    expect(newerOnTop(old, { ids: [9, 8, 7], total: 9 })).toBeNull();
    expect(newerOnTop([], { ids: [1], total: 1 })).toBeNull();
  });
});
