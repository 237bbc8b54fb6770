import { extname, join } from 'node:path';
import { appendManifestRow } from './manifest.ts';
import type { ImageMetadata } from './metadata.ts';
import { writeSidecar } from './sidecar.ts';
import { writeThumbnail } from './thumbnail.ts';
import type { ImageFileFacts } from './write-image.ts';

/** What the library keeps beside its images, each when asked for (--sidecar, --manifest…). */
export interface ImageExtras {
  sidecar: boolean;
  manifest: boolean;
  thumbnails: boolean;
}

export interface ImageExtrasOptions {
  wanted: ImageExtras;
  /** The library folder: nothing is written outside it (containment.ts). */
  library: string;
  /** The batch's folder, where its manifest.csv is (images may sit in folders below it). */
  batchDir: string;
  /**
   * The file was found already in place (written before a crash, its "done" lost): its
   * manifest row may be there too, so the row is appended only if missing. The normal case
   * (false) never reads the manifest.
   */
  foundInPlace: boolean;
}

/** The sidecar beside an image: its path with `.json` for the extension. */
export function sidecarPathFor(imagePath: string): string {
  return `${imagePath.slice(0, imagePath.length - extname(imagePath).length)}.json`;
}

/** What writeImageExtras did: the failures to report, and whether the thumbnail is there. */
export interface ExtrasWritten {
  failures: Error[];
  thumbnail: boolean;
}

/**
 * What every finished image gets besides its file, written or found in place: its sidecar,
 * its manifest row and its thumbnail, as wanted. The sidecar and thumbnail replace any old
 * ones atomically, so writing them again is harmless. Never throws: an image on disk is not
 * failed for a missing extra; the failures are returned for the caller to report.
 */
export async function writeImageExtras(
  image: ImageFileFacts,
  metadata: ImageMetadata,
  options: ImageExtrasOptions,
): Promise<ExtrasWritten> {
  const { sidecar, manifest, thumbnails } = options.wanted;
  if (!sidecar && !manifest && !thumbnails) return { failures: [], thumbnail: false };
  let thumbnail = false;
  const tasks: Array<Promise<unknown>> = [];
  if (sidecar) tasks.push(writeSidecar(sidecarPathFor(image.path), metadata, image));
  if (manifest) {
    tasks.push(
      appendManifestRow(join(options.batchDir, 'manifest.csv'), image, metadata, {
        unlessListed: options.foundInPlace,
      }),
    );
  }
  if (thumbnails) {
    tasks.push(
      writeThumbnail(image.path, { library: options.library }).then(() => (thumbnail = true)),
    );
  }
  const results = await Promise.allSettled(tasks);
  const failures = results.flatMap((result) =>
    result.status === 'rejected' ? [asError(result.reason)] : [],
  );
  return { failures, thumbnail };
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
