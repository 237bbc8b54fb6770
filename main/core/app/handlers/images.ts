import type { z } from 'zod';
import type { ImageQuery } from '../../../../shared/api/schemas/images.ts';
import type { Handlers } from '../../../../shared/api/types.ts';
import { realPathInside } from '../../library/containment.ts';
import { resolveInsideLibrary } from '../../library/naming.ts';
import type { GalleryFilter } from '../../store/gallery-queries.ts';
import { AppError } from '../app-error.ts';
import { deleteImages } from '../delete-images.ts';
import { editedFrom } from './edits.ts';
import type { AppContext } from '../app-context.ts';
import { imageSummary } from '../views.ts';
import { cursorKeys, listScope, notFound, pageFrom } from './paging.ts';

type Facet = { value: string | null; count: number };

/** The model's own size (null) first, then by pixels, then as written. */
function bySizeThenValue(a: Facet, b: Facet): number {
  return pixels(a.value) - pixels(b.value) || byValue(a, b);
}

function pixels(size: string | null): number {
  const match = size === null ? null : /^(\d+)[x*](\d+)$/.exec(size);
  return size === null ? -1 : match ? Number(match[1]) * Number(match[2]) : Infinity;
}

function byValue(a: Facet, b: Facet): number {
  return (a.value ?? '').localeCompare(b.value ?? '');
}

/** The contract's query as the store's filter (the same fields, defaults applied). */
export function toGalleryFilter(query: z.infer<typeof ImageQuery>): GalleryFilter {
  const { text, ...rest } = query;
  return { ...rest, ...(text && text.trim() ? { text } : {}) };
}

/** Downloads queued again: their batches have work again, and the images wait once more. */
export function retriedImages(
  ctx: AppContext,
  images: ReadonlyArray<{ id: number; jobId: number; batchId: number }>,
): void {
  const batches = [...new Set(images.map((image) => image.batchId))];
  ctx.hub.reopen(batches);
  ctx.hub.imagesChanged(
    images.map((image) => image.id),
    batches,
  );
  // their jobs' rows no longer count them as failed
  ctx.hub.jobsUpdated([...new Set(images.map((image) => image.jobId))], batches);
  ctx.wake();
}

export function imageHandlers(ctx: AppContext): Handlers['images'] {
  const { store } = ctx;
  const thumbnails = () => ctx.settings.read().thumbnails;
  const written = (id: number) => {
    const image = store.images.get(id);
    if (!image) throw notFound('image', id);
    if (image.downloadState !== 'done' || !image.relPath) {
      throw new AppError(
        'conflict',
        `Image ${id} is not on disk yet (its download is ${image.downloadState}).`,
      );
    }
    return resolveInsideLibrary(ctx.libraryDir(), image.relPath);
  };
  const hostAction =
    (name: 'reveal' | 'openWithViewer', what: string, act: string) =>
    async ({ id }: { id: number }) => {
      const action = ctx.actions[name];
      if (!action)
        throw new AppError('unsupported', `This window cannot ${what}; the desktop app can.`);
      // the file opened or shown is the one the library's containment rule checked
      await action.call(ctx.actions, await realPathInside(ctx.libraryDir(), written(id), act));
      return null;
    };

  return {
    async page({ query, cursor, limit }) {
      const filter = toGalleryFilter(query);
      // (pages and id lists of one filter share their cursors: both are keyed by image id)
      const scope = listScope('images', filter);
      const [after] = cursorKeys(cursor, ['number'] as const, scope) ?? [null];
      const rows = store.gallery.page(filter, after, limit + 1);
      const withThumbs = thumbnails();
      return pageFrom(
        rows,
        limit,
        scope,
        (i) => [i.id],
        (i) => imageSummary(i, withThumbs),
      );
    },
    async ids({ query, cursor, limit }) {
      const filter = toGalleryFilter(query);
      const scope = listScope('images', filter);
      const [after] = cursorKeys(cursor, ['number'] as const, scope) ?? [null];
      const page = pageFrom(
        store.gallery.ids(filter, after, limit + 1),
        limit,
        scope,
        (id) => [id],
        (id) => id,
      );
      return { ids: page.items, next: page.next, total: store.gallery.count(filter) };
    },
    async byIds({ ids }) {
      const withThumbs = thumbnails();
      return store.gallery.byIds(ids).map((image) => imageSummary(image, withThumbs));
    },
    async count({ query }) {
      return { total: store.gallery.count(toGalleryFilter(query)) };
    },
    async get({ id }) {
      const [image] = store.gallery.byIds([id]);
      if (!image) throw notFound('image', id);
      const job = store.jobs.get(image.jobId)!;
      const batch = store.batches.get(image.batchId);
      return {
        ...imageSummary(image, thumbnails()),
        prompt: job.prompt,
        revisedPrompt: image.revisedPrompt,
        negativePrompt:
          typeof job.params.negative_prompt === 'string' ? job.params.negative_prompt : null,
        // what the gateway said it used wins over what was asked (a random seed is learnt so)
        seed: image.seed ?? job.seed,
        seedFrom: image.seed !== null ? 'gateway' : job.seed !== null ? 'request' : null,
        params: job.params,
        batchName: batch?.name ?? '',
        requestId: job.lastRequestId,
        upstreamRequestId: job.lastUpstreamRequestId,
        sha256: image.sha256,
        path:
          image.relPath && image.downloadState === 'done'
            ? resolveInsideLibrary(ctx.libraryDir(), image.relPath)
            : null,
        editedFrom: editedFrom(store, id),
      };
    },
    async setFavorite({ ids, favorite }) {
      const changed = store.gallery.setFavorite(ids, favorite, ctx.now());
      if (changed > 0) {
        const batches = new Set(store.gallery.byIds(ids).map((image) => image.batchId));
        ctx.hub.imagesChanged(ids, [...batches]);
      }
      return { changed };
    },
    async retryDownloads({ ids }) {
      const { images, ...report } = store.images.retryFailedDownloadsById(ids, ctx.now());
      if (report.queued > 0) retriedImages(ctx, images);
      return report;
    },
    async facets() {
      const { sizes, models } = store.gallery.facets();
      return { sizes: sizes.sort(bySizeThenValue), models: models.sort(byValue) };
    },
    async groups({ query, by }) {
      return { groups: store.gallery.groups(toGalleryFilter(query), by) };
    },
    async delete({ ids }) {
      return deleteImages(ctx, ids);
    },
    reveal: hostAction('reveal', 'show files in their folder', 'show'),
    openWithViewer: hostAction('openWithViewer', 'open files with the system viewer', 'open'),
  };
}
