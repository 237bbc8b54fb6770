import { resolveInsideLibrary } from '../library/naming.ts';
import type { GalleryFilter } from '../store/gallery-queries.ts';
import type { Store } from '../store/store.ts';
import type { ExportRecord } from './manifest-rows.ts';

/** What an export reads of the store. */
export type ExportStore = Pick<Store, 'gallery' | 'jobs' | 'batches'>;

const ID_CHUNK = 1_000;
const ID_PAGE = 10_000;

/** Of the given ids, in their order and each once, those whose image is written. */
export function writtenOfIds(store: ExportStore, ids: readonly number[]): number[] {
  const unique = [...new Set(ids)];
  const written: number[] = [];
  for (let at = 0; at < unique.length; at += ID_CHUNK) {
    for (const image of store.gallery.byIds(unique.slice(at, at + ID_CHUNK))) {
      if (image.downloadState === 'done' && image.relPath) written.push(image.id);
    }
  }
  return written;
}

/**
 * The written images a filter matches, in its order, read now: the export writes this list
 * whatever is written while it runs. A filter that leaves out written images matches none.
 */
export function writtenOfFilter(store: ExportStore, filter: GalleryFilter): number[] {
  if (!filter.downloadStates.includes('done')) return [];
  const only: GalleryFilter = { ...filter, downloadStates: ['done'] };
  const ids: number[] = [];
  for (let after: number | null = null; ;) {
    const page = store.gallery.ids(only, after, ID_PAGE);
    ids.push(...page);
    if (page.length < ID_PAGE) return ids;
    after = page[page.length - 1]!;
  }
}

/**
 * The records of `ids`, read a chunk at a time as the export asks for them (never all at
 * once); an image deleted or no longer written since the list was made is left out.
 */
export function* exportRecords(
  store: ExportStore,
  ids: readonly number[],
  libraryDir: () => string,
  chunk = 200,
): Generator<ExportRecord> {
  const batchNames = new Map<number, string>();
  for (let at = 0; at < ids.length; at += chunk) {
    const root = libraryDir();
    for (const image of store.gallery.byIds(ids.slice(at, at + chunk))) {
      if (image.downloadState !== 'done' || !image.relPath) continue;
      const job = store.jobs.get(image.jobId);
      if (!job) continue;
      let batch = batchNames.get(image.batchId);
      if (batch === undefined) {
        batch = store.batches.get(image.batchId)?.name ?? '';
        batchNames.set(image.batchId, batch);
      }
      const negative = job.params.negative_prompt;
      yield {
        imageId: image.id,
        relPath: image.relPath,
        absolutePath: resolveInsideLibrary(root, image.relPath),
        libraryDir: root,
        batch,
        prompt: job.prompt,
        revisedPrompt: image.revisedPrompt,
        negativePrompt: typeof negative === 'string' ? negative : null,
        model: image.model,
        size: image.size,
        width: image.width,
        height: image.height,
        format: image.format,
        bytes: image.bytes,
        // (the seed the gateway said it used, as the image's details say it)
        seed: image.seed ?? job.seed,
        params: job.params,
        favorite: image.favorite,
        createdAt: image.createdAt,
        sha256: image.sha256,
        requestId: job.lastRequestId,
        upstreamRequestId: job.lastUpstreamRequestId,
      };
    }
  }
}
