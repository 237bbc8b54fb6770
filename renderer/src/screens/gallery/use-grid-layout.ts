import { useLayoutEffect, useMemo, useState, type RefObject } from 'react';
import { columnsFor, layoutRows, type GridRow, type GroupRun } from './grid-layout.ts';

export const GAP = 8;
export const PADDING = 4;
export const HEADER_HEIGHT = 40;
/** Rows rendered beyond the screen's, each way. */
export const OVERSCAN = 3;
/** Two lines of caption (0.8rem at 1.25) and its top margin. */
const CAPTION_HEIGHT = 38;

const NO_ROWS: readonly GridRow[] = [];

/**
 * The grid's columns, tile size and rows for the width it has (measured as it changes). No
 * rows until it is measured (in the commit that mounts it, before the page is painted): the
 * tiles are rendered once, at their size, not first for a guessed width and again.
 */
export function useGridLayout(
  parentRef: RefObject<HTMLDivElement | null>,
  options: { tile: number; count: number; groups: readonly GroupRun[] | null; captions: boolean },
) {
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = parentRef.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry!.contentRect.width));
    observer.observe(element);
    setWidth(element.clientWidth);
    return () => observer.disconnect();
  }, [parentRef]);
  const { tile, count, groups, captions } = options;
  // a test's DOM without layout measures 0: a common window's width
  const inner = Math.max(tile, (width || 1000) - 2 * PADDING);
  const cols = columnsFor(inner, tile, GAP);
  const size = Math.floor((inner - GAP * (cols - 1)) / cols);
  const rowHeight = size + GAP + (captions ? CAPTION_HEIGHT : 0);
  const measured = width !== null;
  const rows = useMemo(
    () => (measured ? layoutRows(count, cols, groups) : NO_ROWS),
    [measured, count, cols, groups],
  );
  return { cols, size, rowHeight, rows };
}
