import { useEffect, useMemo, useState } from 'react';
import { navigate } from '../../frame/navigation.ts';
import { useClient } from '../../api/client-context.ts';
import { useAppStore } from '../../store/react.ts';
import { ConfirmDialog, type ConfirmRequest } from '../../views/ConfirmDialog.tsx';
import { plural } from '../../format.ts';
import { runAction } from '../../views/run-action.ts';
import { ExportPanel } from './ExportPanel.tsx';
import { GalleryActions, type SelectionCommands } from './GalleryActions.tsx';
import { GalleryGrid, type GridCommands } from './GalleryGrid.tsx';
import { GalleryToolbar, TILE_SIZES } from './GalleryToolbar.tsx';
import { Compare } from './lightbox/Compare.tsx';
import { Lightbox } from './lightbox/Lightbox.tsx';
import { rerunDraft } from './lightbox/rerun-draft.ts';
import { activeFilters, DEFAULT_VIEW, toImageQuery } from './gallery-view.ts';
import './gallery.css';

const TILE_KEY = 'atelier.gallery.tile';

/** Everything the queue made: find, select, compare, export, retry downloads, delete. */
export function GalleryScreen() {
  const view = useAppStore((s) => s.galleryView);
  const total = useAppStore((s) => s.galleryTotal);
  const error = useAppStore((s) => s.galleryError);
  const load = useAppStore((s) => s.loadGallery);
  const setView = useAppStore((s) => s.setGalleryView);
  const setFavorite = useAppStore((s) => s.setImagesFavorite);
  const retry = useAppStore((s) => s.retryImageDownloads);
  const deleteImages = useAppStore((s) => s.deleteImages);
  const startExport = useAppStore((s) => s.startExport);
  const client = useClient();
  const editDraft = useAppStore((s) => s.editDraft);
  const [tile, setTile] = useTileSize();
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const [lightbox, setLightbox] = useState<number | null>(null);
  const [compare, setCompare] = useState<readonly number[] | null>(null);
  const [reveal, setReveal] = useState<{ index: number } | null>(null);

  useEffect(() => {
    void load();
  }, [load]);

  const commands = useMemo<GridCommands & SelectionCommands>(() => {
    // the export panel shows its progress: no toast beside it
    const exportSource = (source: Parameters<typeof startExport>[0]) =>
      void runAction(() => startExport(source));
    return {
      open: setLightbox,
      compare: (ids) => setCompare(ids),
      favorite: (ids, favorite) =>
        void runAction(
          () => setFavorite(ids, favorite),
          (changed) =>
            ids.length === 1
              ? null
              : `${favorite ? 'Marked' : 'Unmarked'} ${plural(changed, 'favourite')}.`,
        ),
      retry: (ids) =>
        void runAction(
          () => retry(ids),
          (report) =>
            `Retrying ${plural(report.queued, 'download')} from the stored links: no new generation.` +
            (report.expired > 0
              ? ` ${plural(report.expired, 'link')} had expired and ${report.expired === 1 ? 'is' : 'are'} asked again; if ${report.expired === 1 ? 'it fails' : 'they fail'}, only generating again brings ${report.expired === 1 ? 'it' : 'them'} back.`
              : ''),
        ),
      // a new job the person runs from Compose, never sent from here
      generateAgain: (id) =>
        void runAction(async () => {
          editDraft(rerunDraft(await client.api.images.get({ id })));
          navigate('compose');
        }),
      remove: (ids) =>
        setRequest({
          title: `Delete ${plural(ids.length, 'image')}?`,
          body: (
            <p>
              {ids.length === 1 ? 'Its file goes' : 'Their files go'} to the system trash, where you
              can restore {ids.length === 1 ? 'it' : 'them'}; Atelier forgets{' '}
              {ids.length === 1 ? 'it' : 'them'}. Nothing is sent to the gateway.
            </p>
          ),
          confirmLabel: 'Delete',
          danger: true,
          onConfirm: () =>
            void runAction(
              () => deleteImages(ids),
              (report) =>
                `Deleted ${plural(report.deleted, 'image')}` +
                (report.removed > 0 && report.trashed === 0
                  ? ' (no system trash here: the files are gone).'
                  : '; the files are in the trash.'),
            ),
        }),
      exportIds: (ids) => exportSource({ ids: [...ids] }),
      exportView: () => exportSource({ query: toImageQuery(view) }),
    };
  }, [view, setFavorite, retry, deleteImages, startExport, client, editDraft]);

  const filtered = activeFilters(view) > 0 || view.text.trim() !== '';
  // an empty library shows no tools: there is nothing to find yet
  const bare = total === 0 && !filtered;
  return (
    <section className="screen gallery-screen" aria-labelledby="gallery-heading">
      <div className="gallery-head">
        <h1 id="gallery-heading">Gallery</h1>
        {!bare && <GalleryToolbar tile={tile} setTile={setTile} />}
      </div>
      {!bare && <GalleryActions commands={commands} />}
      {error && <p className="notice notice-error">{error}</p>}
      <GalleryGrid tile={tile} commands={commands} reveal={reveal}>
        {total === 0 && (
          <div className="gallery-empty">
            {filtered ? (
              <>
                <p>
                  No images match {view.text.trim() ? `“${view.text.trim()}”` : 'these filters'}.
                </p>
                <button
                  type="button"
                  onClick={() => setView({ ...DEFAULT_VIEW, order: view.order, group: view.group })}
                >
                  Clear filters
                </button>
              </>
            ) : (
              <>
                <p>No images yet. They appear here as the queue writes them.</p>
                <button type="button" onClick={() => navigate('compose')}>
                  Compose a batch
                </button>
              </>
            )}
          </div>
        )}
      </GalleryGrid>
      <ExportPanel />
      <ConfirmDialog request={request} onClose={() => setRequest(null)} />
      {lightbox !== null && (
        <GalleryLightbox
          index={lightbox}
          setIndex={setLightbox}
          total={total}
          onClose={() => {
            setReveal({ index: lightbox });
            setLightbox(null);
          }}
        />
      )}
      {compare !== null && <Compare ids={compare} onClose={() => setCompare(null)} />}
    </section>
  );
}

function useTileSize(): [number, (size: number) => void] {
  const [tile, setTile] = useState(() => {
    const stored = Number(localStorage.getItem(TILE_KEY));
    return stored >= TILE_SIZES.min && stored <= TILE_SIZES.max ? stored : 176;
  });
  return [
    tile,
    (size) => {
      setTile(size);
      localStorage.setItem(TILE_KEY, String(size));
    },
  ];
}

/** The lightbox over the view's list (only it reads the ids, so the screen does not re-render). */
function GalleryLightbox({
  index,
  setIndex,
  total,
  onClose,
}: {
  index: number;
  setIndex: (index: number) => void;
  total: number | null;
  onClose: () => void;
}) {
  const ids = useAppStore((s) => s.galleryIds);
  const noteFavorite = useAppStore((s) => s.noteFavorite);
  return (
    <Lightbox
      ids={ids}
      total={total ?? ids.length}
      index={index}
      onIndexChange={setIndex}
      onClose={onClose}
      onFavoriteChanged={noteFavorite}
      // images.deleted takes them out of the list; the lightbox then shows the next one
      onDeleted={() => undefined}
    />
  );
}
