import { useEffect, useMemo, useState } from 'react';
import { countOf, formatSize } from '../../format.ts';
import { useAppStore } from '../../store/react.ts';
import {
  activeFilters,
  DEFAULT_VIEW,
  SHOW_LABELS,
  type GalleryGrouping,
  type GalleryShow,
} from './gallery-view.ts';

/** Typing waits this long before the search runs: a search per key would outrun the person. */
const SEARCH_DELAY_MS = 150;

export const TILE_SIZES = { min: 96, max: 360, step: 8 } as const;

/** Search, filters, order, grouping and thumbnail size; the count of matches beside them. */
export function GalleryToolbar({
  tile,
  setTile,
}: {
  tile: number;
  setTile: (size: number) => void;
}) {
  const view = useAppStore((s) => s.galleryView);
  const setView = useAppStore((s) => s.setGalleryView);
  const batches = useAppStore((s) => s.batches);
  const batchIds = useAppStore((s) => s.batchIds);
  const models = useAppStore((s) => s.composeModels);
  const loadModels = useAppStore((s) => s.loadComposeModels);
  const [text, setText] = useState(view.text);
  // narrow windows fold the filters behind a button
  const [filtersOpen, setFiltersOpen] = useState(false);

  useEffect(() => {
    if (models === null) void loadModels();
  }, [models, loadModels]);
  // a view changed elsewhere (Clear) shows its text here
  useEffect(() => setText(view.text), [view.text]);
  useEffect(() => {
    if (text === view.text) return;
    const timer = setTimeout(() => setView({ text }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, view.text, setView]);

  const sizes = useMemo(() => {
    const all = new Set<string>();
    for (const { entry } of models ?? []) {
      if ('sizes' in entry && Array.isArray(entry.sizes))
        for (const size of entry.sizes) all.add(size);
    }
    if (view.size) all.add(view.size);
    return [...all].sort((a, b) => area(a) - area(b) || a.localeCompare(b));
  }, [models, view.size]);
  const modelIds = useMemo(() => {
    const ids = new Set(
      (models ?? []).flatMap(({ entry }) => (entry.kind === 'text' ? [] : [entry.id])),
    );
    if (view.model) ids.add(view.model);
    return [...ids].sort();
  }, [models, view.model]);
  const filtered = activeFilters(view) + Number(view.text.trim() !== '');

  return (
    <div className={`gallery-toolbar${filtersOpen ? ' filters-open' : ''}`}>
      <div className="gallery-search-row">
        <input
          type="search"
          className="gallery-search"
          aria-label="Search prompts"
          placeholder="Search prompts…"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') setView({ text });
          }}
        />
        <MatchCount />
        <button
          type="button"
          className="ghost small"
          aria-pressed={view.favorite}
          onClick={() => setView({ favorite: !view.favorite })}
        >
          <span aria-hidden>{view.favorite ? '★' : '☆'}</span> Favourites
        </button>
        <button
          type="button"
          className="ghost small gallery-filters-toggle"
          aria-expanded={filtersOpen}
          onClick={() => setFiltersOpen(!filtersOpen)}
        >
          Filters{activeFilters(view) > 0 ? ` (${activeFilters(view)})` : ''}
        </button>
        {filtered > 0 && (
          <button
            type="button"
            className="ghost small"
            onClick={() => setView({ ...DEFAULT_VIEW, order: view.order, group: view.group })}
          >
            Clear filters
          </button>
        )}
        <span className="gallery-arrange">
          <select
            aria-label="Order"
            value={view.order}
            onChange={(event) => setView({ order: event.target.value as 'newest' | 'oldest' })}
          >
            <option value="newest">Newest first</option>
            <option value="oldest">Oldest first</option>
          </select>
          <select
            aria-label="Group"
            value={view.group}
            onChange={(event) => setView({ group: event.target.value as GalleryGrouping })}
          >
            <option value="none">No groups</option>
            <option value="batch">By batch</option>
            <option value="day">By day</option>
          </select>
        </span>
        <label className="gallery-tile-size">
          <span aria-hidden>▫</span>
          <input
            type="range"
            aria-label="Thumbnail size"
            min={TILE_SIZES.min}
            max={TILE_SIZES.max}
            step={TILE_SIZES.step}
            value={tile}
            onChange={(event) => setTile(Number(event.target.value))}
          />
          <span aria-hidden>◻</span>
        </label>
      </div>
      <div className="gallery-filters" role="group" aria-label="Filters">
        <select
          aria-label="Show"
          value={view.show}
          onChange={(event) => setView({ show: event.target.value as GalleryShow })}
        >
          {(Object.keys(SHOW_LABELS) as GalleryShow[]).map((show) => (
            <option key={show} value={show}>
              {SHOW_LABELS[show]}
            </option>
          ))}
        </select>
        <select
          aria-label="Batch"
          value={view.batchId ?? ''}
          onChange={(event) =>
            setView({ batchId: event.target.value ? Number(event.target.value) : null })
          }
        >
          <option value="">All batches</option>
          {view.batchId !== null && !batches.has(view.batchId) && (
            <option value={view.batchId}>Batch {view.batchId}</option>
          )}
          {batchIds.map((id) => (
            <option key={id} value={id}>
              {batches.get(id)?.name ?? `Batch ${id}`}
            </option>
          ))}
        </select>
        <select
          aria-label="Model"
          value={view.model ?? ''}
          onChange={(event) => setView({ model: event.target.value || null })}
        >
          <option value="">All models</option>
          {modelIds.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </select>
        <select
          aria-label="Size"
          value={view.size ?? ''}
          onChange={(event) => setView({ size: event.target.value || null })}
        >
          <option value="">All sizes</option>
          {sizes.map((size) => (
            <option key={size} value={size}>
              {formatSize(size)}
            </option>
          ))}
        </select>
        <span className="gallery-dates">
          <input
            type="date"
            aria-label="From day"
            value={view.from ?? ''}
            max={view.to ?? undefined}
            onChange={(event) => setView({ from: event.target.value || null })}
          />
          <span aria-hidden>–</span>
          <input
            type="date"
            aria-label="To day"
            value={view.to ?? ''}
            min={view.from ?? undefined}
            onChange={(event) => setView({ to: event.target.value || null })}
          />
        </span>
      </div>
    </div>
  );
}

/** "1,204 images": what the filters and search match, whether loaded or not. */
function MatchCount() {
  const total = useAppStore((s) => s.galleryTotal);
  const loading = useAppStore((s) => s.galleryLoading);
  const text = total === null ? (loading ? 'Searching…' : '') : countOf(total, 'image');
  return (
    <p className="gallery-count" role="status">
      {text}
    </p>
  );
}

function area(size: string): number {
  const [w, h] = size.split('x').map(Number);
  return (w ?? 0) * (h ?? 0);
}
