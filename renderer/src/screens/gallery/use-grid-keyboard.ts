import type { Virtualizer } from '@tanstack/react-virtual';
import { clickSelect, EMPTY_SELECTION, selectAll, selectedInOrder } from '../../views/selection.ts';
import type { GalleryUi } from './gallery-state.ts';
import { moveIndex, rowOf, type GridKey, type GridRow } from './grid-layout.ts';
import type { GridCommands } from './grid-commands.ts';

const GRID_KEYS = new Set<string>([
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  'Home',
  'End',
]);

/**
 * The grid's keys: arrows, Page Up/Down, Home/End move the focus (Shift extends the
 * selection); Space selects, Enter opens, Ctrl+A selects all, Escape clears, F favourites,
 * E edits, Delete deletes after asking; the Menu key (or Shift+F10) opens the tile's menu.
 */
export function useGridKeyboard(options: {
  ids: readonly number[];
  /** Every id of the view, once all are loaded. */
  allIds: readonly number[] | null;
  rows: readonly GridRow[];
  cols: number;
  rowHeight: number;
  count: number;
  active: number;
  setActive: (index: number) => void;
  ui: Pick<GalleryUi, 'selection' | 'setSelection'>;
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  commands: GridCommands;
  isFavorite: (id: number) => boolean | undefined;
}) {
  const { ids, rows, cols, count, active, setActive, ui, virtualizer, commands } = options;
  const { selection, setSelection } = ui;
  const selectedOrActive = (): number[] => {
    if (selection.selected.size > 0) return selectedInOrder(selection, ids);
    const id = ids[active];
    return id === undefined ? [] : [id];
  };
  const moveTo = (next: number, event: React.KeyboardEvent, mod: boolean) => {
    if (next < 0) return;
    setActive(next);
    virtualizer.scrollToIndex(rowOf(rows, next), { align: 'auto' });
    const id = ids[next];
    if (id === undefined) return;
    if (event.shiftKey) {
      // the range runs from where the focus was when shift went down
      const from = selection.anchor ?? ids[active] ?? id;
      setSelection(clickSelect({ ...selection, anchor: from }, ids, id, { shift: true, mod }));
    } else {
      setSelection({ ...selection, anchor: id });
    }
  };

  return (event: React.KeyboardEvent) => {
    const mod = event.ctrlKey || event.metaKey;
    if (event.target !== event.currentTarget) return; // a tile's own button
    if (event.key === 'PageDown' || event.key === 'PageUp') {
      event.preventDefault();
      const element = event.currentTarget as HTMLElement;
      const pageRows = Math.max(1, Math.floor(element.clientHeight / options.rowHeight));
      const step = (event.key === 'PageDown' ? 1 : -1) * pageRows * cols;
      return moveTo(Math.max(0, Math.min(count - 1, Math.max(active, 0) + step)), event, mod);
    }
    if (GRID_KEYS.has(event.key)) {
      event.preventDefault();
      return moveTo(moveIndex(rows, active, event.key as GridKey, count), event, mod);
    }
    const id = ids[active];
    if (
      (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) &&
      id !== undefined
    ) {
      event.preventDefault();
      if (!selection.selected.has(id)) setSelection({ selected: new Set([id]), anchor: id });
      // at the tile's middle, where a pointer would have opened it
      const box = document.getElementById(`image-${id}`)?.getBoundingClientRect();
      commands.menu(
        box ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : { x: 0, y: 0 },
      );
      return;
    }
    if (event.key === 'Enter' && active >= 0) {
      event.preventDefault();
      commands.open(active);
    } else if (event.key === ' ' && id !== undefined) {
      event.preventDefault();
      setSelection(clickSelect(selection, ids, id, { mod: true }));
    } else if (event.key.toLowerCase() === 'a' && mod) {
      event.preventDefault();
      if (options.allIds) setSelection(selectAll(options.allIds));
    } else if (event.key === 'Escape' && selection.selected.size > 0) {
      event.preventDefault();
      setSelection(EMPTY_SELECTION);
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      const chosen = selectedOrActive();
      if (chosen.length > 0) commands.remove(chosen);
    } else if (event.key.toLowerCase() === 'e' && !mod && !event.altKey) {
      const chosen = selectedOrActive();
      if (chosen.length === 0) return;
      event.preventDefault();
      commands.edit(chosen);
    } else if (event.key.toLowerCase() === 'f' && !mod) {
      const chosen = selectedOrActive();
      if (chosen.length === 0) return;
      // unmark only when every one is marked, as a star toolbar does
      commands.favorite(chosen, !chosen.every((each) => options.isFavorite(each)));
    }
  };
}
