import type { InputOf, OutputOf } from '../../../../shared/api/types.ts';
import { useAction } from '../../data/action.ts';
import { useApi } from '../../data/data-context.ts';
import { inChunks } from '../../data/in-chunks.ts';
import { plural } from '../../format.ts';

/** One hook per action on images: the call, its toast, disabled while it cannot run. */

export function useSetFavorite() {
  const api = useApi();
  return useAction<{ ids: readonly number[]; favorite: boolean }, number>({
    run: async ({ ids, favorite }) =>
      (await inChunks(ids, (chunk) => api.images.setFavorite({ ids: chunk, favorite }))).reduce(
        (sum, r) => sum + r.changed,
        0,
      ),
    // one star says it itself
    done: (changed, { ids, favorite }) =>
      ids.length === 1
        ? null
        : `${favorite ? 'Marked' : 'Unmarked'} ${plural(changed, 'favourite')}.`,
    what: 'change the favourites',
  });
}

export function useRetryImageDownloads() {
  const api = useApi();
  return useAction<readonly number[], { queued: number; expired: number }>({
    run: async (ids) => {
      const reports = await inChunks(ids, (chunk) => api.images.retryDownloads({ ids: chunk }));
      return {
        queued: reports.reduce((sum, r) => sum + r.queued, 0),
        expired: reports.reduce((sum, r) => sum + r.expired, 0),
      };
    },
    done: ({ queued, expired }) =>
      queued === 0
        ? 'Nothing to retry: those downloads are no longer failed.'
        : `Retrying ${plural(queued, 'download')} from the stored links: no new generation.` +
          (expired > 0
            ? ` ${plural(expired, 'link')} had expired and ${expired === 1 ? 'is' : 'are'} asked again; if ${expired === 1 ? 'it fails' : 'they fail'}, only generating again brings ${expired === 1 ? 'it' : 'them'} back.`
            : ''),
    what: 'retry the downloads',
  });
}

export function useDeleteImages() {
  const api = useApi();
  return useAction<readonly number[], OutputOf<'images', 'delete'>>({
    run: async (ids) => {
      const reports = await inChunks(ids, (chunk) => api.images.delete({ ids: chunk }));
      // the `images.deleted` event takes them out of every list, here and in other windows
      return {
        deleted: reports.reduce((sum, r) => sum + r.deleted, 0),
        trashed: reports.reduce((sum, r) => sum + r.trashed, 0),
        removed: reports.reduce((sum, r) => sum + r.removed, 0),
      };
    },
    done: (report) =>
      `Deleted ${plural(report.deleted, 'image')}` +
      (report.removed > 0 && report.trashed === 0
        ? ' (no system trash here: the files are gone).'
        : '; the files are in the trash.'),
    what: 'delete',
  });
}

export function useStartExport() {
  const api = useApi();
  // the export panel shows its progress (export.progress): no toast beside it
  return useAction<InputOf<'exports', 'start'>['source'], OutputOf<'exports', 'start'>>({
    run: (source) => api.exports.start({ source }),
    what: 'export',
  });
}

export function useCancelExport() {
  const api = useApi();
  return useAction<string, null>({
    run: (id) => api.exports.cancel({ id }),
    what: 'cancel the export',
  });
}

/** Shows a file in its folder, or opens it with the system viewer (the desktop only). */
export function useHostAction(kind: 'reveal' | 'openWithViewer') {
  const api = useApi();
  return useAction<number, null>({
    run: (id) => api.images[kind]({ id }),
    what: kind === 'reveal' ? 'show it' : 'open it',
  });
}
