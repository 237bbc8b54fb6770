import { lstat, rm } from 'node:fs/promises';
import { sidecarPathFor } from './image-extras.ts';
import { thumbnailPath } from './thumbnail.ts';

/** Moves files to the system's trash; a host without one has none (files are removed). */
export type TrashFiles = (paths: string[]) => Promise<void>;

/** What became of one image's files. */
export interface Discarded {
  /** Files that were there and are now in the trash. */
  trashed: number;
  /** Files that were there and are now deleted outright (no trash). */
  removed: number;
  /** False while the image file itself is still in the library. */
  imageGone: boolean;
  /** Why a file is still there, if one is. */
  error: Error | null;
}

/**
 * An image's files, the image last: its thumbnail, its sidecar, itself. A failure part way
 * leaves the image whole (a thumbnail is made again on view; a sidecar waits in the trash).
 */
export function imageFiles(imagePath: string): string[] {
  return [thumbnailPath(imagePath), sidecarPathFor(imagePath), imagePath];
}

/**
 * The library's containment rule for one file (containment.ts): its real path when it is
 * inside the library, else an OutsideLibraryError.
 */
export type InsideLibrary = (path: string) => Promise<string>;

/**
 * Moves the image's files that exist to the trash in one call, or removes them without a
 * trash; files already missing are fine. Each is checked by `inside` first and handled by
 * the real path it gives: a file that a link leads out of the library is never touched (the
 * image itself so led: nothing is). What is gone afterwards is counted, whatever the trash
 * said, since a trash may move some paths and then fail on another.
 */
export async function discardImageFiles(
  imagePath: string,
  trash: TrashFiles | undefined,
  inside: InsideLibrary,
): Promise<Discarded> {
  const present = await existing(imageFiles(imagePath));
  const checked = await Promise.allSettled(present.map(inside));
  const image = checked[present.indexOf(imagePath)];
  if (image?.status === 'rejected') {
    return { trashed: 0, removed: 0, imageGone: false, error: asError(image.reason) };
  }
  const refused = checked.flatMap((c) => (c.status === 'rejected' ? [asError(c.reason)] : []));
  const real = checked.flatMap((c) => (c.status === 'fulfilled' ? [c.value] : []));
  const result = await discardFiles(real, image?.value ?? null, trash);
  return { ...result, error: refused[0] ?? result.error };
}

/** Discards `present` (real paths, the image last when it is there). */
async function discardFiles(
  present: string[],
  imagePath: string | null,
  trash: TrashFiles | undefined,
): Promise<Discarded> {
  let error: Error | null = null;
  if (present.length > 0) {
    try {
      if (trash) await trash(present);
      // in order, so a failure stops before the image
      else for (const path of present) await rm(path, { force: true });
    } catch (cause) {
      error = asError(cause);
    }
  }
  const left = error ? await existing(present) : [];
  const gone = present.length - left.length;
  return {
    trashed: trash ? gone : 0,
    removed: trash ? 0 : gone,
    imageGone: imagePath === null || !left.includes(imagePath),
    error: left.length > 0 ? (error ?? new Error('the file is still there')) : null,
  };
}

function asError(cause: unknown): Error {
  return cause instanceof Error ? cause : new Error(String(cause));
}

async function existing(paths: readonly string[]): Promise<string[]> {
  const found = await Promise.all(
    paths.map((path) =>
      lstat(path).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return false;
          throw error;
        },
      ),
    ),
  );
  return paths.filter((_, i) => found[i]);
}
