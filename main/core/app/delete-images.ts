import { realLibraryPath, realPathInside } from '../library/containment.ts';
import {
  discardImageFiles,
  type InsideLibrary,
  type TrashFiles,
} from '../library/discard-files.ts';
import { resolveInsideLibrary } from '../library/naming.ts';
import type { GalleryImage } from '../store/gallery-queries.ts';
import { AppError } from './app-error.ts';
import type { AppContext } from './app-context.ts';

/** Images whose files are moved at once: a trash may start a process per call. */
const AT_ONCE = 4;

export interface DeleteReport {
  deleted: number;
  trashed: number;
  removed: number;
}

/**
 * Deletes images: their files (image, sidecar, thumbnail) to the host's trash, or removed
 * outright where it has none, then their rows in one statement, then `images.deleted`. A file
 * that a link leads out of the library is never touched (containment.ts). An
 * image whose file could not be moved keeps its row (the library and the database agree), and
 * the call fails after deleting the others, saying how many were kept and why. Downloads in
 * flight are refused before anything is touched: the engine is writing their files.
 */
export async function deleteImages(ctx: AppContext, ids: readonly number[]): Promise<DeleteReport> {
  const images = ctx.store.gallery.byIds([...new Set(ids)]);
  const downloading = images.filter((image) => image.downloadState === 'downloading');
  if (downloading.length > 0) {
    throw new AppError(
      'conflict',
      `${plural(downloading.length, 'image is', 'images are')} downloading now ` +
        `(${downloading
          .map((image) => image.id)
          .slice(0, 5)
          .join(', ')}): wait until the ` +
        'download ends, then delete again. Nothing was deleted.',
      { downloading: downloading.map((image) => image.id) },
    );
  }
  const trash: TrashFiles | undefined = ctx.actions.trash?.bind(ctx.actions);
  const library = ctx.libraryDir();
  const root = realLibraryPath(library);
  const inside: InsideLibrary = (path) =>
    realPathInside(library, path, trash ? 'move to the trash' : 'delete', root);
  const report: DeleteReport = { deleted: 0, trashed: 0, removed: 0 };
  const kept: Array<{ id: number; reason: string }> = [];
  const deletable: number[] = [];
  await forEachAtMost(AT_ONCE, images, async (image) => {
    const reason = await discard(image, library, inside, trash, report, (message) =>
      ctx.logger.warn(message),
    );
    if (reason === null) deletable.push(image.id);
    else kept.push({ id: image.id, reason });
  });
  const deleted = ctx.store.gallery.deleteRows(deletable);
  report.deleted = deleted.length;
  if (deleted.length > 0) {
    const gone = new Set(deleted);
    ctx.hub.send({ type: 'images.deleted', payload: { ids: deleted } });
    ctx.hub.touch([...new Set(images.filter((i) => gone.has(i.id)).map((i) => i.batchId))]);
  }
  if (kept.length > 0) {
    for (const { id, reason } of kept) ctx.logger.warn(`image ${id} was kept: ${reason}`);
    throw new AppError(
      'disk',
      `${plural(kept.length, 'image', 'images')} could not be ` +
        `${trash ? 'moved to the trash' : 'deleted'} and ${kept.length === 1 ? 'was' : 'were'} kept: ` +
        `${kept[0]!.reason}. ${plural(deleted.length, 'other was', 'others were')} deleted. ` +
        'Close any program using the files, check the library folder is writable, and try again.',
      { kept: kept.map((k) => k.id), ...report },
    );
  }
  return report;
}

/** Null when the image's row may go (its files are gone, or it had none), else why not. */
async function discard(
  image: GalleryImage,
  library: string,
  inside: InsideLibrary,
  trash: TrashFiles | undefined,
  report: DeleteReport,
  warn: (message: string) => void,
): Promise<string | null> {
  if (!image.relPath) return null; // never written: the row is all there is
  try {
    const path = resolveInsideLibrary(library, image.relPath);
    const outcome = await discardImageFiles(path, trash, inside);
    report.trashed += outcome.trashed;
    report.removed += outcome.removed;
    if (!outcome.imageGone) return `${image.relPath}: ${outcome.error?.message}`;
    // the image is gone, so its row goes; a sidecar or thumbnail left behind is only noted
    if (outcome.error) warn(`a file of ${image.relPath} was left: ${outcome.error.message}`);
    return null;
  } catch (error) {
    return `${image.relPath}: ${(error as Error).message}`;
  }
}

async function forEachAtMost<T>(
  limit: number,
  items: readonly T[],
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
