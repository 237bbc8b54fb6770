import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Client } from '../../api/client.ts';
import { useClient } from '../../api/client-context.ts';
import type { GalleryList } from '../../data/apply-event.ts';
import { useData } from '../../data/data-context.ts';
import { opened } from '../../data/opening.ts';
import type { Data } from '../../data/data.ts';
import { loadIdList } from '../../data/id-lists.ts';
import { keys } from '../../data/keys.ts';
import { firstThumbnails } from './first-thumbnails.ts';
import { toImageQuery, type GalleryView } from './gallery-view.ts';

/** Details fetched with a new list's ids: more than a large window's first screen of tiles. */
const FIRST_SCREEN = 120;

/**
 * The view's ids (every page; the first shows at once), its group headers, and how many images
 * were written since it was read (the events count them; the grid decides when to bring them in).
 */
export function useGalleryList(view: GalleryView) {
  return useQuery(galleryListQuery(useData(), view, useClient()));
}

/**
 * Starts reading a view's list before the screen renders it: a search's requests leave on
 * Enter, not after the whole gallery has rendered the new view (the list's own query then
 * joins the one in flight).
 */
export function prefetchGalleryList(data: Data, view: GalleryView, client: Client): void {
  void data.queries.prefetchQuery(galleryListQuery(data, view, client));
}

function galleryListQuery({ api, queries }: Data, view: GalleryView, client: Client) {
  const query = toImageQuery(view);
  const thumbnails = firstThumbnails(client);
  const by = view.group === 'none' ? null : view.group;
  return queryOptions({
    queryKey: keys.imageIds(query, by),
    queryFn: async ({ queryKey }): Promise<GalleryList> => {
      const before = queries.getQueryData<GalleryList>(queryKey);
      const shape = (list: Omit<GalleryList, 'groups' | 'written'>): GalleryList => ({
        ...list,
        groups: before?.groups ?? null,
        written: 0,
      });
      // a new view's first screen of details with its ids, not a round trip after them
      const details = before
        ? null
        : api.images.page({ query, limit: FIRST_SCREEN }).then(
            (page) => {
              page.items.forEach((image) => queries.setQueryData(keys.image(image.id), image));
              // the first screen's thumbnails leave now, not once the grid has rendered; the
              // window's opening list shows once those in view are decoded (first-thumbnails.ts:
              // the frame's first render would hold them up); a later one (a search) at once
              const decoded = thumbnails?.(page.items);
              return opened() ? undefined : decoded;
            },
            () => undefined,
          );
      const [list, groups] = await Promise.all([
        loadIdList(queries, queryKey, (cursor, limit) => api.images.ids({ query, cursor, limit }), {
          newerOnTop: query.order === 'newest',
          shape,
          // A list of more than one page shows its first at once: not before the details are
          // in, or its tiles would ask for them again and draw in two goes, two bundles
          showAfter: details ?? undefined,
        }),
        by ? api.images.groups({ query, by }) : null,
        details,
      ]);
      // images written while this was read may be in it or not: they are counted again
      const now = queries.getQueryData<GalleryList>(queryKey);
      const written = Math.max(0, (now?.written ?? 0) - (before?.written ?? 0));
      return { ...list, groups: groups?.groups ?? null, written };
    },
  });
}

/**
 * The sizes and models the library holds, with counts, for the filters. Not kept fresh by
 * every write (a run writes hundreds a second): read as the filters show, and `refetch` when
 * a filter is about to open.
 */
export function useImageFacets() {
  const { api } = useData();
  return useQuery({
    queryKey: keys.imageFacets(),
    queryFn: () => api.images.facets(),
    refetchOnMount: 'always',
  });
}

/** One tile's summary; fetched with the other tiles of the same render when `wanted`. */
export function useImage(id: number | undefined, wanted: boolean) {
  const data = useData();
  return useQuery({
    queryKey: keys.image(id ?? 0),
    queryFn: () => data.images.load(id!),
    enabled: wanted && id !== undefined,
    // tiles scrolled away are let go: the window's memory stays flat over 100,000 images
    gcTime: 30_000,
  });
}

/** One image's details; they follow its events (written, failed, a favourite). */
export function useImageDetail(id: number | undefined) {
  const { api } = useData();
  return useQuery({
    queryKey: keys.imageDetail(id ?? 0),
    queryFn: () => api.images.get({ id: id! }),
    enabled: id !== undefined,
  });
}

/** How many written images were edited from this one (its details link to them). */
export function useEditCount(id: number | undefined) {
  const { api } = useData();
  const query = { editedFrom: id ?? 0 };
  return useQuery({
    queryKey: keys.imageCount(query),
    queryFn: async () => (await api.images.count({ query })).total,
    enabled: id !== undefined,
  });
}

/** Several images' details, in the order of `ids`. */
export function useImageDetails(ids: readonly number[]) {
  const { api } = useData();
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: keys.imageDetail(id),
      queryFn: () => api.images.get({ id }),
    })),
  });
}

/** The neighbours' details and pictures, fetched ahead so stepping through shows each at once. */
export function usePrefetchDetails(ids: readonly number[], mediaUrl: Client['mediaUrl']) {
  const { api, queries } = useData();
  const ahead = ids.join(',');
  useEffect(() => {
    for (const id of ahead ? ahead.split(',').map(Number) : []) {
      queries
        .fetchQuery({ queryKey: keys.imageDetail(id), queryFn: () => api.images.get({ id }) })
        .then((d) => {
          if (d.relPath && d.kind === 'image' && d.downloadState === 'done') {
            new Image().src = mediaUrl(d.relPath, 'image', d);
          }
        })
        .catch(() => undefined); // shown when the person gets there
    }
  }, [ahead, api, queries, mediaUrl]);
}
