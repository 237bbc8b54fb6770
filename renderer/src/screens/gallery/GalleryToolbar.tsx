import { useState } from 'react';
import { countOf } from '../../format.ts';
import { galleryUi } from './gallery-state.ts';
import { useGalleryList } from './gallery-queries.ts';
import { activeFilters, DEFAULT_VIEW, type GalleryGrouping } from './gallery-view.ts';
import { GalleryFilters } from './GalleryFilters.tsx';
import { SearchBox } from './SearchBox.tsx';
import type { TileDisplay } from './tile-display.ts';
import { TileDisplayControls } from './TileDisplayControls.tsx';
import { TILE_SIZES } from './tile-size.ts';

/** Search, filters, order, grouping and thumbnail size; the count of matches beside them. */
export function GalleryToolbar({
  tile,
  setTile,
  display,
  setDisplay,
}: {
  tile: number;
  setTile: (size: number) => void;
  display: TileDisplay;
  setDisplay: (patch: Partial<TileDisplay>) => void;
}) {
  const view = galleryUi.useSelect((s) => s.view);
  const setView = galleryUi.useSelect((s) => s.setView);
  // narrow windows fold the filters behind a button
  const [filtersOpen, setFiltersOpen] = useState(false);
  const narrowing = activeFilters(view);
  const filtered = narrowing + Number(view.text.trim() !== '');

  return (
    <div className={`gallery-toolbar${filtersOpen ? ' filters-open' : ''}`}>
      <div className="gallery-search-row">
        <SearchBox />
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
          Filters{narrowing > 0 ? ` (${narrowing})` : ''}
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
        <TileDisplayControls display={display} setDisplay={setDisplay} />
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
      <GalleryFilters />
    </div>
  );
}

/** "1,204 images": what the filters and search match, whether loaded or not. */
function MatchCount() {
  const view = galleryUi.useSelect((s) => s.view);
  const { data: list, isFetching } = useGalleryList(view);
  const text = list ? countOf(list.total, 'image') : isFetching ? 'Searching…' : '';
  return (
    <p className="gallery-count" role="status">
      {text}
    </p>
  );
}
