import { useEffect, useRef, useState } from 'react';
import { formatSize } from '../../format.ts';
import { useBatches } from '../queue/queue-queries.ts';
import { DAY_PRESET_LABELS, presetOf, presetRange, type DayPreset } from './day-range.ts';
import { facetOptions } from './filter-options.ts';
import { useGalleryList, useImageFacets } from './gallery-queries.ts';
import { galleryUi } from './gallery-state.ts';
import {
  ORIGIN_LABELS,
  SHOW_LABELS,
  type GalleryOrigin,
  type GalleryShow,
} from './gallery-view.ts';

/** What to show, edits or not, which batch, model, size and days. */
export function GalleryFilters() {
  const view = galleryUi.useSelect((s) => s.view);
  const setView = galleryUi.useSelect((s) => s.setView);
  const { batches } = useBatches();
  const facets = useImageFacets();
  const total = useGalleryList(view).data?.total;
  const { refetch } = facets;
  // the view took in new images (or lost some): the library may hold a new size or model. Not
  // while a search is typed: each word changes the total, and the facets (the whole library's,
  // not the search's) would be read beside every search's first page, on the host's one thread
  const searching = view.text.trim() !== '';
  // Nor as the view's first total comes: the facets are read as the filters show
  // (useImageFacets), and a second read then would hold up the first screen's thumbnails
  const totalBefore = useRef(total);
  useEffect(() => {
    if (searching || total === undefined) return;
    if (totalBefore.current !== undefined && totalBefore.current !== total) void refetch();
    totalBefore.current = total;
  }, [total, searching, refetch]);
  const sizes = facetOptions(facets.data?.sizes, view.size, formatSize);
  const models = facetOptions(facets.data?.models, view.model);
  // what the library holds changes as images are written: read again as a filter opens
  const fresh = () => void facets.refetch();

  return (
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
        aria-label="Origin"
        value={view.origin}
        onChange={(event) => setView({ origin: event.target.value as GalleryOrigin })}
      >
        {(Object.keys(ORIGIN_LABELS) as GalleryOrigin[]).map((origin) => (
          <option key={origin} value={origin}>
            {ORIGIN_LABELS[origin]}
          </option>
        ))}
      </select>
      {view.editedFrom !== null && (
        <button
          type="button"
          className="ghost small gallery-chip"
          aria-label={`Edits of image ${view.editedFrom}: show every image`}
          onClick={() => setView({ editedFrom: null })}
        >
          Edits of image {view.editedFrom} <span aria-hidden>✕</span>
        </button>
      )}
      <select
        aria-label="Batch"
        value={view.batchId ?? ''}
        onChange={(event) =>
          setView({ batchId: event.target.value ? Number(event.target.value) : null })
        }
      >
        <option value="">All batches</option>
        {view.batchId !== null && !batches.some((b) => b.id === view.batchId) && (
          <option value={view.batchId}>Batch {view.batchId}</option>
        )}
        {batches.map((batch) => (
          <option key={batch.id} value={batch.id}>
            {batch.name}
          </option>
        ))}
      </select>
      <select
        aria-label="Model"
        value={view.model ?? ''}
        onFocus={fresh}
        onPointerDown={fresh}
        onChange={(event) => setView({ model: event.target.value || null })}
      >
        <option value="">All models</option>
        {models.map(({ value, label }) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <select
        aria-label="Size"
        value={view.size ?? ''}
        onFocus={fresh}
        onPointerDown={fresh}
        onChange={(event) => setView({ size: event.target.value || null })}
      >
        <option value="">All sizes</option>
        {sizes.map(({ value, label }) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <DaysFilter from={view.from} to={view.to} setView={setView} />
    </div>
  );
}

/**
 * The days shown: a few common ranges in one select, and the two days of a range of one's own
 * only when asked for (two date fields always there pushed the filters onto a line of their own).
 */
function DaysFilter({
  from,
  to,
  setView,
}: {
  from: string | null;
  to: string | null;
  setView: (patch: { from?: string | null; to?: string | null }) => void;
}) {
  const [choosing, setChoosing] = useState(false);
  // cleared from outside (Clear filters): back to the select alone
  const [seen, setSeen] = useState({ from, to });
  if (seen.from !== from || seen.to !== to) {
    setSeen({ from, to });
    if (from === null && to === null) setChoosing(false);
  }
  const preset = choosing ? 'custom' : presetOf({ from, to }, new Date());
  return (
    <span className="gallery-dates">
      <select
        aria-label="Days"
        value={preset}
        onChange={(event) => {
          const next = event.target.value as DayPreset;
          setChoosing(next === 'custom');
          // "Choose days…" keeps the days there are, as a start
          if (next !== 'custom') setView(presetRange(next, new Date()));
        }}
      >
        {(Object.keys(DAY_PRESET_LABELS) as DayPreset[]).map((key) => (
          <option key={key} value={key}>
            {DAY_PRESET_LABELS[key]}
          </option>
        ))}
      </select>
      {preset === 'custom' && (
        <>
          <input
            type="date"
            aria-label="From day"
            value={from ?? ''}
            max={to ?? undefined}
            onChange={(event) => setView({ from: event.target.value || null })}
          />
          <span aria-hidden>–</span>
          <input
            type="date"
            aria-label="To day"
            value={to ?? ''}
            min={from ?? undefined}
            onChange={(event) => setView({ to: event.target.value || null })}
          />
        </>
      )}
    </span>
  );
}
