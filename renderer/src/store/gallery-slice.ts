import type { InputOf, OutputOf } from '../../../shared/api/types.ts';
import { MAX_DETAILS, MAX_ID_PAGE } from '../../../shared/api/paging.ts';
import {
  DEFAULT_VIEW,
  queryKey,
  toImageQuery,
  type GalleryView,
} from '../screens/gallery/gallery-view.ts';
import { EMPTY_SELECTION, keepListed, type SelectionState } from '../views/selection.ts';
import { errorMessage } from './error-message.ts';
import { inChunks } from './in-chunks.ts';
import { without } from './without.ts';
import type { SliceCreator } from './state.ts';

export type ImageSummary = OutputOf<'images', 'byIds'>[number];
export type ImageGroup = OutputOf<'images', 'groups'>['groups'][number];
export type ExportProgress = OutputOf<'exports', 'get'>;
export type ExportSource = InputOf<'exports', 'start'>['source'];

/** Details fetched with a new list's ids: more than a large window's first screen of tiles. */
const FIRST_SCREEN = 120;
/** Summaries kept past this many are dropped, farthest from the range on screen first. */
const KEEP_DETAILS = 4_000;

export interface GallerySlice {
  galleryView: GalleryView;
  /** The view's ids in list order; the rest load in the background, up to the total. */
  galleryIds: readonly number[];
  /** Every image the view matches (null until the first answer). */
  galleryTotal: number | null;
  /** Runs by batch or day when the view groups, in list order. */
  galleryGroups: readonly ImageGroup[] | null;
  galleryImages: ReadonlyMap<number, ImageSummary>;
  galleryPending: ReadonlySet<number>;
  /** Images written since the list was loaded (they may belong in it). */
  galleryFresh: number;
  /** Downloads retried or events missed since the list was loaded: reload it when convenient. */
  galleryStale: boolean;
  galleryLoading: boolean;
  galleryError: string | null;
  gallerySelection: SelectionState;
  exportsById: ReadonlyMap<string, ExportProgress>;
  setGalleryView(patch: Partial<GalleryView>): void;
  /** The view's list again from the start (the cached details stay). */
  loadGallery(): Promise<void>;
  /** Every id of the view, loading what is missing (for select all). */
  loadAllGalleryIds(): Promise<readonly number[]>;
  /** Details of the images at [start, end) of the list, fetching only those not cached. */
  fetchGalleryRange(start: number, end: number): Promise<void>;
  setGallerySelection(selection: SelectionState): void;
  setImagesFavorite(ids: readonly number[], favorite: boolean): Promise<number>;
  /** A favourite set elsewhere (the lightbox): the tiles follow. */
  noteFavorite(id: number, favorite: boolean): void;
  retryImageDownloads(ids: readonly number[]): Promise<{ queued: number; expired: number }>;
  deleteImages(ids: readonly number[]): Promise<OutputOf<'images', 'delete'>>;
  startExport(source: ExportSource): Promise<OutputOf<'exports', 'start'>>;
  cancelExport(id: string): Promise<void>;
}

export const createGallerySlice: SliceCreator<GallerySlice> = (api) => (set, get) => {
  /** Only the newest load may write the list. */
  let generation = 0;
  let complete: Promise<void> | null = null;

  async function loadRest(mine: number, cursor: string | null, key: string): Promise<void> {
    const query = toImageQuery(get().galleryView);
    while (cursor !== null && mine === generation) {
      const page = await api.images.ids({ query, cursor, limit: MAX_ID_PAGE });
      if (mine !== generation || queryKey(query) !== key) return;
      set((s) => ({ galleryIds: [...s.galleryIds, ...page.ids], galleryTotal: page.total }));
      cursor = page.next;
    }
  }

  async function load(): Promise<void> {
    const mine = ++generation;
    const view = get().galleryView;
    const query = toImageQuery(view);
    const key = queryKey(query);
    set({ galleryLoading: true });
    try {
      const [page, groups] = await Promise.all([
        api.images.ids({ query, limit: MAX_ID_PAGE }),
        view.group === 'none' ? null : api.images.groups({ query, by: view.group }),
        // the first screen's details with the ids, not a round trip after them
        // (a head start only: the range fetch asks again for what it lacks)
        api.images
          .page({ query, limit: FIRST_SCREEN })
          .then((first) => {
            if (mine === generation) remember(first.items);
          })
          .catch(() => undefined),
      ]);
      if (mine !== generation) return;
      const loaded = {
        galleryTotal: page.total,
        galleryGroups: groups?.groups ?? null,
        galleryFresh: 0,
        galleryStale: false,
        galleryLoading: false,
        galleryError: null,
      };
      const grown = newerOnTop(get().galleryIds, page);
      if (grown) {
        // only newer images came: the ids loaded below them stay, no page is asked again
        set({ ...loaded, galleryIds: grown });
        return;
      }
      set((s) => ({
        ...loaded,
        galleryIds: page.ids,
        // a list longer than a page keeps its selection: the rest of it is still coming
        gallerySelection:
          page.next === null ? keepListed(s.gallerySelection, page.ids) : s.gallerySelection,
      }));
      complete = loadRest(mine, page.next, key).catch((error: unknown) => {
        if (mine === generation) set({ galleryError: errorMessage(error) });
      });
      await complete;
    } catch (error) {
      if (mine === generation) set({ galleryLoading: false, galleryError: errorMessage(error) });
    }
  }

  function remember(images: readonly ImageSummary[]): void {
    if (images.length > 0) set((s) => ({ galleryImages: withImages(s.galleryImages, images) }));
  }

  async function loadDetails(ids: number[]): Promise<void> {
    try {
      const images = await api.images.byIds({ ids });
      set((s) => ({
        galleryImages: withImages(s.galleryImages, images),
        galleryPending: without(s.galleryPending, ids),
        galleryError: null,
      }));
    } catch (error) {
      set((s) => ({
        galleryPending: without(s.galleryPending, ids),
        galleryError: errorMessage(error),
      }));
    }
  }

  /** Keeps the cache near the range on screen: 100,000 summaries would be ~100 MB. */
  function trimmed(
    images: ReadonlyMap<number, ImageSummary>,
    ids: readonly number[],
    start: number,
    end: number,
  ): ReadonlyMap<number, ImageSummary> {
    if (images.size <= KEEP_DETAILS) return images;
    const keep = new Map<number, ImageSummary>();
    const half = KEEP_DETAILS / 2;
    for (const id of ids.slice(Math.max(0, start - half), end + half)) {
      const image = images.get(id);
      if (image) keep.set(id, image);
    }
    return keep;
  }

  function patchImages(ids: readonly number[], change: Partial<ImageSummary>): void {
    set((s) => {
      const byId = new Map(s.galleryImages);
      for (const id of ids) {
        const image = byId.get(id);
        if (image) byId.set(id, { ...image, ...change });
      }
      return { galleryImages: byId };
    });
  }

  /** The tiles follow a favourite set here or in the lightbox. */
  function favoriteChanged(ids: readonly number[], favorite: boolean): void {
    patchImages(ids, { favorite });
    // a view of favourites loses the ones unmarked
    if (get().galleryView.favorite && !favorite) set({ galleryStale: true });
  }

  return {
    galleryView: DEFAULT_VIEW,
    galleryIds: [],
    galleryTotal: null,
    galleryGroups: null,
    galleryImages: new Map(),
    galleryPending: new Set(),
    galleryFresh: 0,
    galleryStale: false,
    galleryLoading: false,
    galleryError: null,
    gallerySelection: EMPTY_SELECTION,
    exportsById: new Map(),

    setGalleryView(patch) {
      const view = { ...get().galleryView, ...patch };
      if (queryKey(toImageQuery(view)) === queryKey(toImageQuery(get().galleryView))) {
        // grouping alone changed: the same list, other headers
        set({ galleryView: view });
        if (patch.group !== undefined) void load();
        return;
      }
      set({ galleryView: view, galleryIds: [], galleryTotal: null, galleryGroups: null });
      void load();
    },

    loadGallery: load,

    async loadAllGalleryIds() {
      const { galleryIds, galleryTotal } = get();
      if (galleryTotal !== null && galleryIds.length >= galleryTotal) return galleryIds;
      await (complete ?? load());
      return get().galleryIds;
    },

    async fetchGalleryRange(start, end) {
      const { galleryIds, galleryImages, galleryPending } = get();
      const wanted = galleryIds
        .slice(Math.max(0, start), Math.max(0, end))
        .filter((id) => !galleryImages.has(id) && !galleryPending.has(id));
      if (wanted.length === 0) return;
      set((s) => {
        const pending = new Set(s.galleryPending);
        for (const id of wanted) pending.add(id);
        return {
          galleryPending: pending,
          galleryImages: trimmed(s.galleryImages, s.galleryIds, start, end),
        };
      });
      const calls: Promise<void>[] = [];
      for (let i = 0; i < wanted.length; i += MAX_DETAILS) {
        calls.push(loadDetails(wanted.slice(i, i + MAX_DETAILS)));
      }
      await Promise.all(calls);
    },

    setGallerySelection(selection) {
      set({ gallerySelection: selection });
    },

    async setImagesFavorite(ids, favorite) {
      const results = await inChunks(ids, (chunk) =>
        api.images.setFavorite({ ids: chunk, favorite }),
      );
      favoriteChanged(ids, favorite);
      return results.reduce((sum, r) => sum + r.changed, 0);
    },

    noteFavorite(id, favorite) {
      favoriteChanged([id], favorite);
    },

    async retryImageDownloads(ids) {
      const results = await inChunks(ids, (chunk) => api.images.retryDownloads({ ids: chunk }));
      patchImages(ids, { downloadState: 'pending', failureCode: null, failureReason: null });
      set({ galleryStale: true });
      return {
        queued: results.reduce((sum, r) => sum + r.queued, 0),
        expired: results.reduce((sum, r) => sum + r.expired, 0),
      };
    },

    async deleteImages(ids) {
      const results = await inChunks(ids, (chunk) => api.images.delete({ ids: chunk }));
      // the `images.deleted` event takes them out of the list, here and in other windows
      return {
        deleted: results.reduce((sum, r) => sum + r.deleted, 0),
        trashed: results.reduce((sum, r) => sum + r.trashed, 0),
        removed: results.reduce((sum, r) => sum + r.removed, 0),
      };
    },

    async startExport(source) {
      const started = await api.exports.start({ source });
      if (started.id !== null && started.path !== null) {
        const progress: ExportProgress = {
          id: started.id,
          state: 'running',
          path: started.path,
          done: 0,
          total: started.total,
          bytes: 0,
          error: null,
        };
        // its first event may have come first
        set((s) =>
          s.exportsById.has(progress.id)
            ? {}
            : { exportsById: new Map(s.exportsById).set(progress.id, progress) },
        );
      }
      return started;
    },

    async cancelExport(id) {
      await api.exports.cancel({ id });
    },
  };
};

function withImages(
  cached: ReadonlyMap<number, ImageSummary>,
  images: readonly ImageSummary[],
): ReadonlyMap<number, ImageSummary> {
  const byId = new Map(cached);
  for (const image of images) byId.set(image.id, image);
  return byId;
}

/**
 * The list with the newer ids of a fresh first page on top, when that is all that changed
 * (the old first id is in the page and the total grew by exactly the ids above it); else null.
 */
export function newerOnTop(
  old: readonly number[],
  page: { ids: readonly number[]; total: number },
): readonly number[] | null {
  if (old.length === 0 || page.ids.length === 0) return null;
  const at = page.ids.indexOf(old[0]!);
  if (at <= 0) return null;
  if (page.total !== old.length + at) return null;
  // the rest of the page must match what was loaded, or something moved
  for (let i = at; i < page.ids.length && i - at < old.length; i++) {
    if (page.ids[i] !== old[i - at]) return null;
  }
  return [...page.ids.slice(0, at), ...old];
}
