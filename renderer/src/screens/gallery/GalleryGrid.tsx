import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useData } from '../../data/data-context.ts';
import { useOpened } from '../../data/opening.ts';
import { keys } from '../../data/keys.ts';
import type { ImageSummary } from '../../data/types.ts';
import { countOf } from '../../format.ts';
import { clickSelect } from '../../views/selection.ts';
import { galleryUi } from './gallery-state.ts';
import type { GridCommands } from './grid-commands.ts';
import { useGalleryList } from './gallery-queries.ts';
import { toImageQuery } from './gallery-view.ts';
import { gridShown, rememberFirstScreen } from './first-thumbnails.ts';
import { GalleryTile, type TileActions } from './GalleryTile.tsx';
import { rowOf, type GridRow } from './grid-layout.ts';
import { searchTerms } from './highlight.ts';
import type { TileDisplay } from './tile-display.ts';
import { useGridKeyboard } from './use-grid-keyboard.ts';
import { GAP, HEADER_HEIGHT, OVERSCAN, PADDING, useGridLayout } from './use-grid-layout.ts';

/** The tiles on screen are asked for once the grid has rested this long (not while it flies). */
const REST_MS = 60;
/** Within this many pixels of the top, new images join the view as they come. */
const AT_TOP_PX = 8;

/**
 * The virtual grid: rows of tiles (and group headers) for every image the view matches, the
 * ids known first and each tile's details fetched, with the others on screen, when the grid
 * rests on them.
 */
export function GalleryGrid({
  tile,
  display,
  commands,
  reveal,
  children,
}: {
  tile: number;
  display: TileDisplay;
  commands: GridCommands;
  /** An image to focus and scroll to (the lightbox closed on it); a new object each time. */
  reveal: { index: number } | null;
  /** Shown over the grid (an empty state). */
  children?: React.ReactNode;
}) {
  const view = galleryUi.useSelect((s) => s.view);
  const selection = galleryUi.useSelect((s) => s.selection);
  const setSelection = galleryUi.useSelect((s) => s.setSelection);
  const { data: list, isError } = useGalleryList(view);
  const ids = list?.ids ?? NO_IDS;
  const count = list?.total ?? 0;
  const parentRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(-1);
  const terms = useMemo(() => (view.text.trim() ? searchTerms(view.text) : null), [view.text]);
  const { cols, size, rowHeight, rows } = useGridLayout(parentRef, {
    tile,
    count,
    groups: view.group === 'none' ? null : (list?.groups ?? null),
    // failed downloads show their prompt below them too
    captions: display.captions || terms !== null || view.show !== 'written',
  });

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parentRef.current,
    estimateSize: (i) => (rows[i]?.kind === 'header' ? HEADER_HEIGHT : rowHeight),
    // the window's first screen is the rows in view; the rows around it come once it is drawn
    overscan: useOpened() ? OVERSCAN : 0,
    paddingStart: PADDING,
    paddingEnd: PADDING,
    isScrollingResetDelay: REST_MS,
    initialRect: { width: 800, height: 600 },
  });
  useEffect(() => virtualizer.measure(), [virtualizer, rows, rowHeight]);
  // the rows on screen (a partial one each end) and the overscan: the next list's first bundle
  const height = virtualizer.scrollRect?.height ?? 0;
  useEffect(() => {
    const inView = cols * (Math.ceil(height / rowHeight) + 1);
    if (height > 0) rememberFirstScreen({ tiles: inView + cols * OVERSCAN, inView, perRow: cols });
  }, [cols, rowHeight, height]);

  // a new filter starts at the top
  const listKey = JSON.stringify(toImageQuery(view));
  useEffect(() => {
    parentRef.current?.scrollTo({ top: 0 });
    setActive(-1);
  }, [listKey]);

  const fresh = useFreshImages(
    view,
    list?.written ?? 0,
    (virtualizer.scrollOffset ?? 0) <= AT_TOP_PX,
  );
  const actions = useTileActions(ids, commands, setActive);
  const { queries } = useData();
  const onKeyDown = useGridKeyboard({
    ids,
    allIds: list?.complete ? ids : null,
    rows,
    cols,
    rowHeight,
    count,
    active,
    setActive,
    ui: { selection, setSelection },
    virtualizer,
    commands,
    isFavorite: (id) => queries.getQueryData<ImageSummary | null>(keys.image(id))?.favorite,
  });

  useEffect(() => {
    if (!reveal) return;
    setActive(reveal.index);
    virtualizer.scrollToIndex(rowOf(rows, reveal.index), { align: 'auto' });
    parentRef.current?.focus({ preventScroll: true });
    // only a new request moves the focus, not a new layout
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reveal]);

  const items = virtualizer.getVirtualItems();
  // the window's first gallery is shown: the frame's other reads may start (data/opening.ts)
  const shown = isError || (list !== undefined && (count === 0 || items.length > 0));
  useEffect(() => {
    if (shown) gridShown();
  }, [shown]);
  const first = rows[items[0]?.index ?? 0]?.start ?? 0;
  const activeId = ids[active];
  return (
    <div className="gallery-grid-wrap">
      {fresh.count > 0 && (
        <button
          type="button"
          className="gallery-fresh"
          onClick={() => {
            parentRef.current?.scrollTo({ top: 0 });
            fresh.bringIn();
          }}
        >
          ↑ {countOf(fresh.count, 'new image')}
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
          {items.map((item) => (
            <GridRowView
              key={rowKey(rows[item.index]!)}
              row={rows[item.index]!}
              index={item.index}
              top={item.start}
              ids={ids}
              size={size}
              terms={terms}
              display={display}
              wanted={!virtualizer.isScrolling}
              selected={selection.selected}
              active={active}
              actions={actions}
            />
          ))}
        </div>
      </div>
    </div>
  );
}

const NO_IDS: readonly number[] = [];
const rowKey = (row: GridRow) => `${row.kind === 'header' ? 'h' : 'r'}${row.start}`;

function GridRowView({
  row,
  index,
  top,
  ids,
  size,
  terms,
  display,
  wanted,
  selected,
  active,
  actions,
}: {
  row: GridRow;
  index: number;
  top: number;
  ids: readonly number[];
  size: number;
  terms: ReturnType<typeof searchTerms> | null;
  display: TileDisplay;
  wanted: boolean;
  selected: ReadonlySet<number>;
  active: number;
  actions: TileActions;
}) {
  if (row.kind === 'header') {
    return (
      <div
        role="row"
        aria-rowindex={index + 1}
        className="gallery-group"
        style={{ transform: `translateY(${top}px)`, height: HEADER_HEIGHT - GAP }}
      >
        <div role="rowheader">
          <h2>
            {row.label} <span className="muted">{countOf(row.count, 'image')}</span>
          </h2>
        </div>
      </div>
    );
  }
  const cells = [];
  for (let at = row.start; at < row.end; at++) {
    const id = ids[at];
    cells.push(
      <GalleryTile
        key={id ?? `i${at}`}
        id={id}
        index={at}
        size={size}
        captionTerms={terms}
        display={display}
        wanted={wanted}
        selected={id !== undefined && selected.has(id)}
        active={at === active}
        actions={actions}
      />,
    );
  }
  return (
    <div
      role="row"
      aria-rowindex={index + 1}
      className="gallery-row"
      style={{ transform: `translateY(${top}px)`, gap: GAP, left: PADDING }}
    >
      {cells}
    </div>
  );
}

/**
 * Images written since the view was read: they join at once where that moves nothing the
 * person looks at (at the top of a newest-first view); elsewhere a button offers them.
 */
function useFreshImages(
  view: Parameters<typeof useGalleryList>[0],
  written: number,
  atTop: boolean,
) {
  const { refresher } = useData();
  const key = keys.imageIds(toImageQuery(view), view.group === 'none' ? null : view.group);
  const keyText = JSON.stringify(key);
  const quietly = view.order === 'newest' && atTop;
  useEffect(() => {
    if (written > 0 && quietly) refresher.refreshKey(JSON.parse(keyText) as typeof key);
  }, [written, quietly, refresher, keyText]);
  return {
    count: quietly ? 0 : written,
    bringIn: () => refresher.refreshKey(key),
  };
}

/** One set of handlers for every tile (reading the newest ids): tiles keep their props. */
function useTileActions(
  ids: readonly number[],
  commands: GridCommands,
  setActive: (index: number) => void,
): TileActions {
  const store = galleryUi.useStoreApi();
  const latest = useRef({ ids, commands });
  useEffect(() => {
    latest.current = { ids, commands };
  });
  return useMemo<TileActions>(
    () => ({
      onClick(id, index, event) {
        setActive(index);
        const { selection, setSelection } = store.getState();
        setSelection(
          clickSelect(selection, latest.current.ids, id, {
            shift: event.shiftKey,
            mod: event.ctrlKey || event.metaKey,
          }),
        );
      },
      onOpen: (index) => latest.current.commands.open(index),
      onFavorite: (id, favorite) => latest.current.commands.favorite([id], favorite),
      onMenu(id, index, at) {
        setActive(index);
        // a tile outside the selection becomes the selection, as in a file manager
        const { selection, setSelection } = store.getState();
        if (!selection.selected.has(id)) setSelection({ selected: new Set([id]), anchor: id });
        latest.current.commands.menu(at);
      },
      onRetry: (id) => latest.current.commands.retry([id]),
      onGenerateAgain: (id) => latest.current.commands.generateAgain(id),
    }),
    [store, setActive],
  );
}
