import { describe, expect, it } from 'vitest';
import {
  columnsFor,
  layoutRows,
  moveIndex,
  rowOf,
} from '../../../../renderer/src/screens/gallery/grid-layout.ts';

describe('the grid layout', () => {
  it('fits as many columns as the width allows, at least one', () => {
    expect(columnsFor(1000, 180, 8)).toBe(5);
    expect(columnsFor(100, 180, 8)).toBe(1);
  });

  it('lays 100,000 images out in rows without a group', () => {
    const rows = layoutRows(100_000, 7, null);
    expect(rows).toHaveLength(Math.ceil(100_000 / 7));
    expect(rows.at(-1)).toEqual({ kind: 'tiles', start: 99_995, end: 100_000 });
  });

  it('starts each group on a row of its own under its header; late images follow', () => {
    const rows = layoutRows(9, 3, [
      { label: 'Foxes', count: 4 },
      { label: 'Cats', count: 2 },
    ]);
    expect(rows).toEqual([
      { kind: 'header', start: 0, label: 'Foxes', count: 4 },
      { kind: 'tiles', start: 0, end: 3 },
      { kind: 'tiles', start: 3, end: 4 },
      { kind: 'header', start: 4, label: 'Cats', count: 2 },
      { kind: 'tiles', start: 4, end: 6 },
      { kind: 'tiles', start: 6, end: 9 },
    ]);
    expect(rowOf(rows, 0)).toBe(1);
    expect(rowOf(rows, 4)).toBe(4);
    expect(rowOf(rows, 8)).toBe(5);
  });

  it('moves the focus by one, by a row in the same column, and to the ends', () => {
    const rows = layoutRows(10, 4, null);
    expect(moveIndex(rows, 5, 'ArrowRight', 10)).toBe(6);
    expect(moveIndex(rows, 0, 'ArrowLeft', 10)).toBe(0);
    expect(moveIndex(rows, 1, 'ArrowDown', 10)).toBe(5);
    // the last row is short: down lands on its last image
    expect(moveIndex(rows, 7, 'ArrowDown', 10)).toBe(9);
    expect(moveIndex(rows, 9, 'ArrowUp', 10)).toBe(5);
    expect(moveIndex(rows, 2, 'ArrowUp', 10)).toBe(2);
    expect(moveIndex(rows, 4, 'End', 10)).toBe(9);
    expect(moveIndex(rows, -1, 'ArrowDown', 10)).toBe(0);
  });

  it('steps over group headers when moving down and up', () => {
    const rows = layoutRows(6, 3, [
      { label: 'a', count: 2 },
      { label: 'b', count: 4 },
    ]);
    expect(moveIndex(rows, 1, 'ArrowDown', 6)).toBe(3);
    expect(moveIndex(rows, 2, 'ArrowUp', 6)).toBe(0);
  });
});
