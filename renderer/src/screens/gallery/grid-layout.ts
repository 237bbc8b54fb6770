/** A row of the grid: a group's header, or tiles [start, end) of the list. */
export type GridRow =
  | { kind: 'header'; start: number; label: string; count: number }
  | { kind: 'tiles'; start: number; end: number };

export interface GroupRun {
  label: string;
  count: number;
}

/** Columns of `tile` px (with `gap` between) that fit in `width`: at least one. */
export function columnsFor(width: number, tile: number, gap: number): number {
  return Math.max(1, Math.floor((width + gap) / (tile + gap)));
}

/**
 * The grid's rows for `total` images in `cols` columns, each group under its header and
 * starting a row of its own. Images past the groups' counts (written since they were asked
 * for) follow in rows with no header.
 */
export function layoutRows(
  total: number,
  cols: number,
  groups: readonly GroupRun[] | null,
): GridRow[] {
  const rows: GridRow[] = [];
  let at = 0;
  const tiles = (count: number) => {
    const end = Math.min(total, at + count);
    for (let start = at; start < end; start += cols) {
      rows.push({ kind: 'tiles', start, end: Math.min(end, start + cols) });
    }
    at = end;
  };
  for (const group of groups ?? []) {
    if (at >= total) break;
    if (group.count === 0) continue;
    rows.push({ kind: 'header', start: at, label: group.label, count: group.count });
    tiles(group.count);
  }
  tiles(total - at);
  return rows;
}

/** The index of the row that holds image `index` (rows in order, as layoutRows makes them). */
export function rowOf(rows: readonly GridRow[], index: number): number {
  let low = 0;
  let high = rows.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (rows[mid]!.start <= index) low = mid;
    else high = mid - 1;
  }
  // a header shares its start with the first tile row under it
  while (rows[low]?.kind === 'header' && low + 1 < rows.length) low++;
  return low;
}

export type GridKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown' | 'Home' | 'End';

/** Where a key moves the focus in the grid: by one, by a row (same column), or to an end. */
export function moveIndex(
  rows: readonly GridRow[],
  index: number,
  key: GridKey,
  total: number,
): number {
  if (total === 0) return -1;
  if (index < 0) return 0;
  switch (key) {
    case 'ArrowLeft':
      return Math.max(0, index - 1);
    case 'ArrowRight':
      return Math.min(total - 1, index + 1);
    case 'Home':
      return 0;
    case 'End':
      return total - 1;
  }
  const r = rowOf(rows, index);
  const row = rows[r];
  if (row?.kind !== 'tiles') return index;
  const column = index - row.start;
  const step = key === 'ArrowDown' ? 1 : -1;
  for (let next = r + step; next >= 0 && next < rows.length; next += step) {
    const target = rows[next]!;
    if (target.kind === 'tiles') return Math.min(target.start + column, target.end - 1);
  }
  return index;
}
