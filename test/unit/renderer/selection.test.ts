import { describe, expect, it } from 'vitest';
import {
  clickSelect,
  EMPTY_SELECTION,
  keepListed,
  selectAll,
  selectedInOrder,
  type SelectionState,
} from '../../../renderer/src/views/selection.ts';

const order = [10, 11, 12, 13, 14, 15];
const ids = (s: SelectionState) => [...s.selected].sort((a, b) => a - b);

describe('the job list selection', () => {
  it('a plain click selects only that row and anchors there', () => {
    let s = clickSelect(EMPTY_SELECTION, order, 12);
    s = clickSelect(s, order, 14);
    expect(ids(s)).toEqual([14]);
    expect(s.anchor).toBe(14);
  });

  it('mod-click toggles one row and keeps the rest', () => {
    let s = clickSelect(EMPTY_SELECTION, order, 11);
    s = clickSelect(s, order, 13, { mod: true });
    expect(ids(s)).toEqual([11, 13]);
    s = clickSelect(s, order, 11, { mod: true });
    expect(ids(s)).toEqual([13]);
    expect(s.anchor).toBe(11);
  });

  it('shift-click selects the range from the anchor, either way, replacing the rest', () => {
    let s = clickSelect(EMPTY_SELECTION, order, 10);
    s = clickSelect(s, order, 15, { mod: true });
    s = clickSelect(s, order, 12, { shift: true });
    expect(ids(s)).toEqual([12, 13, 14, 15]);
    expect(s.anchor).toBe(15); // the anchor stays, so a second shift-click re-draws the range
    s = clickSelect(s, order, 14, { shift: true });
    expect(ids(s)).toEqual([14, 15]);
  });

  it('mod+shift-click adds the range to what is selected', () => {
    let s = clickSelect(EMPTY_SELECTION, order, 10);
    s = clickSelect(s, order, 13, { mod: true });
    s = clickSelect(s, order, 15, { shift: true, mod: true });
    expect(ids(s)).toEqual([10, 13, 14, 15]);
  });

  it('shift-click without an anchor (or one that left the list) selects just the row', () => {
    expect(ids(clickSelect(EMPTY_SELECTION, order, 13, { shift: true }))).toEqual([13]);
    const gone = { selected: new Set([99]), anchor: 99 };
    expect(ids(clickSelect(gone, order, 13, { shift: true }))).toEqual([13]);
  });

  it('select all takes every id of the filter; keepListed drops what left it', () => {
    const all = selectAll(order);
    expect(ids(all)).toEqual(order);
    const narrowed = keepListed(all, [11, 13]);
    expect(ids(narrowed)).toEqual([11, 13]);
    expect(narrowed.anchor).toBeNull(); // 10 left the list
    expect(keepListed(narrowed, [11, 12, 13])).toBe(narrowed); // unchanged: same object
  });

  it('gives the selection in list order, whatever the order of clicks', () => {
    let s = clickSelect(EMPTY_SELECTION, order, 15);
    s = clickSelect(s, order, 10, { mod: true });
    s = clickSelect(s, order, 12, { mod: true });
    expect(selectedInOrder(s, order)).toEqual([10, 12, 15]);
  });

  it('stays quick over 100,000 ids', () => {
    const big = Array.from({ length: 100_000 }, (_, i) => i + 1);
    const start = performance.now();
    let s = clickSelect(EMPTY_SELECTION, big, 5);
    s = clickSelect(s, big, 99_995, { shift: true });
    expect(s.selected.size).toBe(99_991);
    expect(selectedInOrder(s, big)).toHaveLength(99_991);
    expect(performance.now() - start).toBeLessThan(500);
  });
});
