import { useState } from 'react';
import { toast } from 'sonner';
import { useData } from '../../data/data-context.ts';
import { errorMessage } from '../../data/error-message.ts';
import { keys } from '../../data/keys.ts';
import { plural } from '../../format.ts';
import { navigate } from '../../frame/navigation.ts';
import { ConfirmDialog, type ConfirmRequest } from '../../views/ConfirmDialog.tsx';
import { useOpenInCompose } from '../compose/use-open-in-compose.tsx';
import { useBatches } from '../queue/queue-queries.ts';
import { ExportPanel } from './ExportPanel.tsx';
import { SelectionMenu } from './SelectionMenu.tsx';
import {
  useDeleteImages,
  useRetryImageDownloads,
  useSetFavorite,
  useStartExport,
} from './gallery-actions.ts';
import { useGalleryList } from './gallery-queries.ts';
import { galleryUi } from './gallery-state.ts';
import { activeFilters, DEFAULT_VIEW, toImageQuery } from './gallery-view.ts';
import { GalleryActions, type SelectionCommands } from './GalleryActions.tsx';
import { GalleryGrid } from './GalleryGrid.tsx';
import type { GridCommands } from './grid-commands.ts';
import { GalleryToolbar } from './GalleryToolbar.tsx';
import { Compare } from './lightbox/Compare.tsx';
import { Lightbox } from './lightbox/Lightbox.tsx';
import { useLightboxPlace } from './lightbox/lightbox-place.ts';
import type { EditLinks } from './lightbox/MetadataPanel.tsx';
import { rerunDraft } from './lightbox/rerun-draft.ts';
import { EditDialog } from '../edit/EditDialog.tsx';
import { editUi } from '../edit/edit-state.ts';
import { useTileDisplay } from './tile-display.ts';
import { saveTileSize, storedTileSize } from './tile-size.ts';
import './gallery.css';

const NO_IDS: readonly number[] = [];

/** Everything the queue made: find, select, compare, export, retry downloads, delete. */
export function GalleryScreen() {
  const view = galleryUi.useSelect((s) => s.view);
  const setView = galleryUi.useSelect((s) => s.setView);
  const list = useGalleryList(view);
  const total = list.data?.total ?? null;
  const [tile, setTile] = useTileSize();
  const [display, setDisplay] = useTileDisplay();
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const lightbox = useLightboxPlace(list.data?.ids);
  const [compare, setCompare] = useState<{ ids: readonly number[]; slider: boolean } | null>(null);
  const [reveal, setReveal] = useState<{ index: number } | null>(null);
  const [menu, setMenu] = useState<{ x: number; y: number } | null>(null);
  const commands = useGalleryCommands(
    setRequest,
    (index) => lightbox.show(index),
    (ids) => setCompare({ ids, slider: false }),
    setMenu,
  );
  const ids = list.data?.ids ?? NO_IDS;
  const links = useEditLinks(ids, lightbox, setCompare);

  const filtered = activeFilters(view) > 0 || view.text.trim() !== '';
  // no batch yet: no tools, there is nothing to find (one whose downloads all failed has tools:
  // "Show" finds them)
  const { batches, loading } = useBatches();
  const bare = total === 0 && !filtered && !loading && batches.length === 0;
  return (
    <section className="screen gallery-screen" aria-labelledby="gallery-heading">
      <div className="gallery-head">
        <h1 id="gallery-heading">Gallery</h1>
        {!bare && (
          <GalleryToolbar tile={tile} setTile={setTile} display={display} setDisplay={setDisplay} />
        )}
      </div>
      {!bare && <GalleryActions commands={commands} />}
      {list.error && <p className="notice notice-error">{errorMessage(list.error)}</p>}
      <GalleryGrid tile={tile} display={display} commands={commands} reveal={reveal}>
        {/* said once the batches are known, with the tools shown or hidden as they will stay */}
        {total === 0 && (filtered || !loading) && (
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
      {menu && (
        <SelectionMenu at={menu} ids={ids} commands={commands} onClose={() => setMenu(null)} />
      )}
      <ExportPanel />
      <ConfirmDialog request={request} onClose={() => setRequest(null)} />
      {lightbox.place !== null && (
        <Lightbox
          ids={lightbox.place.ids}
          total={lightbox.place.own ? lightbox.place.ids.length : (total ?? 0)}
          index={lightbox.place.index}
          onIndexChange={lightbox.step}
          onClose={() => {
            if (!lightbox.place?.own) setReveal({ index: lightbox.place?.index ?? 0 });
            lightbox.close();
          }}
          links={links}
        />
      )}
      {compare !== null && (
        <Compare ids={compare.ids} slider={compare.slider} onClose={() => setCompare(null)} />
      )}
      <EditDialog />
    </section>
  );
}

/**
 * Where an edit's details lead: its source (in the view's list when it is there, else on its
 * own with the edit after it), before and after in compare's slider, a picture's edits.
 */
function useEditLinks(
  ids: readonly number[],
  lightbox: ReturnType<typeof useLightboxPlace>,
  setCompare: (compare: { ids: readonly number[]; slider: boolean }) => void,
): EditLinks {
  const setView = galleryUi.useSelect((s) => s.setView);
  const view = galleryUi.useSelect((s) => s.view);
  return {
    showImage(id) {
      const at = ids.indexOf(id);
      if (at >= 0) return lightbox.show(at);
      const { place } = lightbox;
      const current = place ? place.ids[place.index] : undefined;
      lightbox.show(0, current === undefined ? [id] : [id, current]);
    },
    compare: (source, edit) => setCompare({ ids: [source, edit], slider: true }),
    showEdits(id) {
      lightbox.close();
      setView({ ...DEFAULT_VIEW, order: view.order, group: view.group, editedFrom: id });
    },
  };
}

/** What the grid and the selection bar do, each through its one action. */
function useGalleryCommands(
  confirm: (request: ConfirmRequest) => void,
  open: (index: number) => void,
  compare: (ids: readonly number[]) => void,
  menu: (at: { x: number; y: number }) => void,
): GridCommands & SelectionCommands {
  const { api, queries } = useData();
  const view = galleryUi.useSelect((s) => s.view);
  const favorite = useSetFavorite();
  const retry = useRetryImageDownloads();
  const remove = useDeleteImages();
  const startExport = useStartExport();
  const openInCompose = useOpenInCompose(confirm);
  const edit = editUi.useSelect((s) => s.open);
  return {
    open,
    edit,
    menu,
    compare,
    favorite: (ids, on) => void favorite.run({ ids, favorite: on }),
    retry: (ids) => void retry.run(ids),
    // a new job the person runs from Compose, never sent from here
    generateAgain: (id) =>
      void queries
        .fetchQuery({ queryKey: keys.imageDetail(id), queryFn: () => api.images.get({ id }) })
        .then(
          (detail) =>
            openInCompose(
              rerunDraft(detail),
              'this image’s prompt and parameters: run it yourself',
            ),
          (error: unknown) => toast.error(`Could not read the image: ${errorMessage(error)}`),
        ),
    remove: (ids) =>
      confirm({
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
        onConfirm: () => void remove.run(ids),
      }),
    exportIds: (ids) => void startExport.run({ ids: [...ids] }),
    exportView: () => void startExport.run({ query: toImageQuery(view) }),
  };
}

function useTileSize(): [number, (size: number) => void] {
  const [tile, setTile] = useState(storedTileSize);
  return [
    tile,
    (size) => {
      setTile(size);
      saveTileSize(size);
    },
  ];
}
