import { useState } from 'react';

/**
 * Where the lightbox is: on an image of the view's list, or of a list of its own (an edit's
 * source that the view does not show, with the edit after it).
 */
export interface LightboxAt {
  /** The image shown. */
  id: number;
  /** Its index in the list when last placed: where the lightbox stays if the image leaves. */
  index: number;
  /** A list of its own, or null: the view's. */
  ids: readonly number[] | null;
}

/**
 * The index of the lightbox's image in `ids`, wherever a change of the list moved it (images
 * written at the top of a newest-first view, a search read); the index it had when its image
 * left the list (deleted: the next one takes its place).
 */
export function placeIn(ids: readonly number[], at: LightboxAt): number {
  if (ids[at.index] === at.id) return at.index;
  const found = ids.indexOf(at.id);
  return found >= 0 ? found : at.index;
}

const NONE: readonly number[] = [];

/**
 * The lightbox's place over the view's list (`viewIds`: undefined while a new list is read).
 * It follows its image, not an index: a video playing there is not swapped for another as a
 * batch writes images above it. While a new list is read the last one stands in, so the
 * lightbox is not closed as if the view were empty.
 */
export function useLightboxPlace(viewIds: readonly number[] | undefined) {
  const [at, setAt] = useState<LightboxAt | null>(null);
  const [lastIds, setLastIds] = useState<readonly number[]>(viewIds ?? NONE);
  if (viewIds !== undefined && viewIds !== lastIds) setLastIds(viewIds);
  const view = viewIds ?? lastIds;
  const ids = at?.ids ?? view;
  const index = at ? placeIn(ids, at) : -1;
  const id = ids[index];
  // its image left the list: the one that took its place is followed from now on
  if (at && id !== undefined && (id !== at.id || index !== at.index)) setAt({ ...at, id, index });
  return {
    /** Null when closed; else the list the lightbox steps through and its index there. */
    place: at && { ids, index, own: at.ids !== null },
    /** Opens (or moves) the lightbox at `index` of `own`, or of the view's list. */
    show(index: number, own: readonly number[] | null = null) {
      const shown = (own ?? view)[index];
      if (shown !== undefined) setAt({ id: shown, index, ids: own });
    },
    /** Steps within the list it shows. */
    step(next: number) {
      if (at) setAt({ ...at, index: next, id: ids[next] ?? at.id });
    },
    close: () => setAt(null),
  };
}
