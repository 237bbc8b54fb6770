import { createStore } from 'zustand/vanilla';
import { storeContext } from '../../views/store-context.ts';
import { EMPTY_SELECTION, type SelectionState } from '../../views/selection.ts';
import { DEFAULT_VIEW, queryKey, toImageQuery, type GalleryView } from './gallery-view.ts';

/** What the gallery shows and what is selected in it (kept when leaving the screen). */
export interface GalleryUi {
  view: GalleryView;
  selection: SelectionState;
  setView(patch: Partial<GalleryView>): void;
  setSelection(selection: SelectionState): void;
  /** Images deleted (here or elsewhere) leave the selection. */
  forget(ids: readonly number[]): void;
}

export const createGalleryUi = () =>
  createStore<GalleryUi>()((set, get) => ({
    view: DEFAULT_VIEW,
    selection: EMPTY_SELECTION,
    setView(patch) {
      const view = { ...get().view, ...patch };
      const sameList = queryKey(toImageQuery(view)) === queryKey(toImageQuery(get().view));
      // another filter is another list: what was selected in the last one is not in view
      set(sameList ? { view } : { view, selection: EMPTY_SELECTION });
    },
    setSelection: (selection) => set({ selection }),
    forget(ids) {
      const { selection } = get();
      if (!ids.some((id) => selection.selected.has(id))) return;
      const selected = new Set(selection.selected);
      for (const id of ids) selected.delete(id);
      const anchor =
        selection.anchor !== null && ids.includes(selection.anchor) ? null : selection.anchor;
      set({ selection: { selected, anchor } });
    },
  }));

export const galleryUi = storeContext<GalleryUi>('The gallery');
