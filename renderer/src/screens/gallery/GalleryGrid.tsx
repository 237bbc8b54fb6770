import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { countOf } from '../../format.ts';
import { useAppStore, useAppStoreApi } from '../../store/react.ts';
import { clickSelect, EMPTY_SELECTION, selectAll, selectedInOrder } from '../../views/selection.ts';
import { GalleryTile, type TileActions } from './GalleryTile.tsx';
import { columnsFor, layoutRows, moveIndex, rowOf, type GridKey } from './grid-layout.ts';
import { queryKey, toImageQuery } from './gallery-view.ts';
import { searchTerms } from './highlight.ts';

const GAP = 8;
const PADDING = 4;
const HEADER_HEIGHT = 40;
/** Two lines of caption (0.8rem at 1.25) and its top margin. */
const CAPTION_HEIGHT = 38;
/** The range on screen rests this long before its details are asked for. */
const RANGE_REST_MS = 60;
/** A range that moved less than a screen in this long is read as it goes: asked at once. */
const CREEP_MS = 200;
/** The list is reloaded for new or changed images at most this often. */
const RELOAD_MS = 1000;
/** Within this many pixels of the top, new images join the view as they come. */
const AT_TOP_PX = 8;

export interface GridCommands {
  open(index: number): void;
  favorite(ids: readonly number[], favorite: boolean): void;
  retry(ids: readonly number[]): void;
  generateAgain(id: number): void;
  remove(ids: readonly number[]): void;
}

/**
 * The virtual grid: rows of tiles (and group headers) for every image the view matches, the
 * ids known first and the details of the rows on screen fetched as they come into view.
 */
export function GalleryGrid({
  tile,
  commands,
  reveal,
  children,
}: {
  tile: number;
  commands: GridCommands;
  /** An image to focus and scroll to (the lightbox closed on it); a new object each time. */
  reveal: { index: number } | null;
  /** Shown over the grid (an empty state). */
  children?: React.ReactNode;
}) {
  const ids = useAppStore((s) => s.galleryIds);
  const total = useAppStore((s) => s.galleryTotal);
  const groups = useAppStore((s) => s.galleryGroups);
  const view = useAppStore((s) => s.galleryView);
  const selection = useAppStore((s) => s.gallerySelection);
  const setSelection = useAppStore((s) => s.setGallerySelection);
  const fetchRange = useAppStore((s) => s.fetchGalleryRange);
  const loadAll = useAppStore((s) => s.loadAllGalleryIds);
  const fresh = useAppStore((s) => s.galleryFresh);
  const stale = useAppStore((s) => s.galleryStale);
  const reload = useAppStore((s) => s.loadGallery);
  const store = useAppStoreApi();
  const parentRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [active, setActive] = useState(-1);

  useLayoutEffect(() => {
    const element = parentRef.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry!.contentRect.width));
    observer.observe(element);
    setWidth(element.clientWidth);
    return () => observer.disconnect();
  }, []);

  const count = total ?? 0;
  // nothing measured yet (or a test's DOM without layout): a common window's width
  const inner = Math.max(tile, (width || 1000) - 2 * PADDING);
  const cols = columnsFor(inner, tile, GAP);
  const size = Math.floor((inner - GAP * (cols - 1)) / cols);
  const terms = useMemo(() => (view.text.trim() ? searchTerms(view.text) : null), [view.text]);
  // failed downloads show their prompt below them too
  const captions = terms !== null || view.show !== 'written';
  const rowHeight = size + GAP + (captions ? CAPTION_HEIGHT : 0);
  const rows = useMemo(
    () => layoutRows(count, cols, view.group === 'none' ? null : groups),
    [count, cols, groups, view.group],
  );

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parentRef.current,
    estimateSize: (i) => (rows[i]?.kind === 'header' ? HEADER_HEIGHT : rowHeight),
    overscan: 3,
    paddingStart: PADDING,
    paddingEnd: PADDING,
    initialRect: { width: 800, height: 600 },
  });
  useEffect(() => virtualizer.measure(), [virtualizer, rows, rowHeight]);

  // a new filter starts at the top
  const key = useMemo(() => queryKey(toImageQuery(view)), [view]);
  useEffect(() => {
    parentRef.current?.scrollTo({ top: 0 });
    setActive(-1);
  }, [key]);

  const items = virtualizer.getVirtualItems();
  const firstRow = rows[items[0]?.index ?? 0];
  const lastRow = rows[items[items.length - 1]?.index ?? 0];
  const first = firstRow?.start ?? 0;
  const last = lastRow ? (lastRow.kind === 'tiles' ? lastRow.end : lastRow.start) : 0;
  // While the grid flies past, answers would land after their rows left and every one would
  // re-render the tiles: details are asked when the range rests, when it creeps (a slow, steady
  // scroll), or at once for a new list.
  const lastFetch = useRef({ at: -Infinity, first: 0, ids: ids });
  useEffect(() => {
    if (ids.length === 0) return;
    const load = () => {
      lastFetch.current = { at: Date.now(), first, ids };
      void fetchRange(first, last);
    };
    const previous = lastFetch.current;
    const creeping =
      Date.now() - previous.at >= CREEP_MS && Math.abs(first - previous.first) <= last - first;
    if (previous.ids !== ids || creeping) return void load();
    const timer = setTimeout(load, RANGE_REST_MS);
    return () => clearTimeout(timer);
  }, [first, last, ids, fetchRange]);

  const atTop = (virtualizer.scrollOffset ?? 0) <= AT_TOP_PX;
  // new images join at once where they do not move what is on screen; elsewhere a pill offers them
  const joinsQuietly = view.order === 'oldest' || atTop;
  const lastReload = useRef(0);
  useEffect(() => {
    if (!stale && !(fresh > 0 && joinsQuietly)) return;
    const timer = setTimeout(
      () => {
        lastReload.current = Date.now();
        void reload();
      },
      Math.max(0, lastReload.current + RELOAD_MS - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [stale, fresh, joinsQuietly, reload]);

  const idsRef = useRef(ids);
  idsRef.current = ids;
  const selectionRef = useRef(selection);
  selectionRef.current = selection;
  const commandsRef = useRef(commands);
  commandsRef.current = commands;
  // one set of handlers for every tile: tiles keep their props and skip renders
  const actions = useMemo<TileActions>(
    () => ({
      onClick(id, index, event) {
        setActive(index);
        setSelection(
          clickSelect(selectionRef.current, idsRef.current, id, {
            shift: event.shiftKey,
            mod: event.ctrlKey || event.metaKey,
          }),
        );
      },
      onOpen: (index) => commandsRef.current.open(index),
      onFavorite: (id, favorite) => commandsRef.current.favorite([id], favorite),
      onRetry: (id) => commandsRef.current.retry([id]),
      onGenerateAgain: (id) => commandsRef.current.generateAgain(id),
    }),
    [setSelection],
  );

  const scrollToImage = useCallback(
    (index: number) => virtualizer.scrollToIndex(rowOf(rows, index), { align: 'auto' }),
    [virtualizer, rows],
  );
  useEffect(() => {
    if (!reveal) return;
    setActive(reveal.index);
    scrollToImage(reveal.index);
    parentRef.current?.focus({ preventScroll: true });
    // only a new request moves the focus, not a new layout
  }, [reveal]);

  const selectedOrActive = (): number[] => {
    if (selection.selected.size > 0) return selectedInOrder(selection, ids);
    const id = ids[active];
    return id === undefined ? [] : [id];
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    const mod = event.ctrlKey || event.metaKey;
    if (event.target !== event.currentTarget) return; // a tile's own button
    if (GRID_KEYS.has(event.key) || event.key === 'PageDown' || event.key === 'PageUp') {
      event.preventDefault();
      const pageRows = Math.max(1, Math.floor((parentRef.current?.clientHeight ?? 0) / rowHeight));
      const next =
        event.key === 'PageDown' || event.key === 'PageUp'
          ? Math.max(
              0,
              Math.min(
                count - 1,
                Math.max(active, 0) + (event.key === 'PageDown' ? 1 : -1) * pageRows * cols,
              ),
            )
          : moveIndex(rows, active, event.key as GridKey, count);
      if (next < 0) return;
      setActive(next);
      scrollToImage(next);
      const id = ids[next];
      if (id === undefined) return;
      if (event.shiftKey) {
        // the range runs from where the focus was when shift went down
        const from = selection.anchor ?? ids[active] ?? id;
        setSelection(clickSelect({ ...selection, anchor: from }, ids, id, { shift: true, mod }));
      } else {
        setSelection({ ...selection, anchor: id });
      }
      return;
    }
    const id = ids[active];
    if (event.key === 'Enter' && active >= 0) {
      event.preventDefault();
      commands.open(active);
    } else if (event.key === ' ' && id !== undefined) {
      event.preventDefault();
      setSelection(clickSelect(selection, ids, id, { mod: true }));
    } else if (event.key.toLowerCase() === 'a' && mod) {
      event.preventDefault();
      void loadAll().then((all) => setSelection(selectAll(all)));
    } else if (event.key === 'Escape' && selection.selected.size > 0) {
      event.preventDefault();
      setSelection(EMPTY_SELECTION);
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      const chosen = selectedOrActive();
      if (chosen.length > 0) commands.remove(chosen);
    } else if (event.key.toLowerCase() === 'f' && !mod) {
      const chosen = selectedOrActive();
      if (chosen.length === 0) return;
      // unmark only when every one is marked, as a star toolbar does
      const images = store.getState().galleryImages;
      const allOn = chosen.every((each) => images.get(each)?.favorite);
      commands.favorite(chosen, !allOn);
    }
  };

  const activeId = ids[active];
  return (
    <div className="gallery-grid-wrap">
      {fresh > 0 && !joinsQuietly && (
        <button
          type="button"
          className="gallery-fresh"
          onClick={() => {
            parentRef.current?.scrollTo({ top: 0 });
            void reload();
          }}
        >
          ↑ {countOf(fresh, 'new image')}
        </button>
      )}
      {children}
      <div
        ref={parentRef}
        className="gallery-scroll"
        role="grid"
        aria-label="Images"
        aria-multiselectable
        aria-rowcount={rows.length}
        aria-colcount={cols}
        aria-activedescendant={activeId !== undefined ? `image-${activeId}` : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onFocus={() => {
          if (active < 0 && count > 0) setActive(first);
        }}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = rows[item.index]!;
            if (row.kind === 'header') {
              return (
                <div
                  key={`h${row.start}`}
                  role="row"
                  aria-rowindex={item.index + 1}
                  className="gallery-group"
                  style={{ transform: `translateY(${item.start}px)`, height: HEADER_HEIGHT - GAP }}
                >
                  <h2 role="rowheader">
                    {row.label} <span className="muted">{countOf(row.count, 'image')}</span>
                  </h2>
                </div>
              );
            }
            const cells = [];
            for (let index = row.start; index < row.end; index++) {
              const id = ids[index];
              cells.push(
                <GalleryTile
                  key={id ?? `i${index}`}
                  id={id}
                  index={index}
                  size={size}
                  captionTerms={terms}
                  selected={id !== undefined && selection.selected.has(id)}
                  active={index === active}
                  actions={actions}
                />,
              );
            }
            return (
              <div
                key={`r${row.start}`}
                role="row"
                aria-rowindex={item.index + 1}
                className="gallery-row"
                style={{ transform: `translateY(${item.start}px)`, gap: GAP, left: PADDING }}
              >
                {cells}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

const GRID_KEYS = new Set<string>([
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  'Home',
  'End',
]);
