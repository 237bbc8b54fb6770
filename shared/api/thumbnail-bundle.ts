/**
 * The thumbnail bundle: many thumbnails in one answer (see main/core/library/thumbnail-bundle.ts).
 * Not part of the typed contract (its body is bytes, not JSON): both hosts serve it on the
 * page's own origin at THUMB_BUNDLE_PATH, `?p=<path as after /thumbs/>&p=…`.
 */

export const THUMB_BUNDLE_PATH = '/thumb-bundle';

/** At most this many paths in one bundle: a screenful of the grid is 20–60. */
export const THUMBNAIL_BUNDLE_MAX = 100;

/** The response header listing each thumbnail's length in bytes, in the order asked. */
export const THUMBNAIL_SIZES_HEADER = 'X-Thumbnail-Sizes';

/** One entry of the sizes header: the thumbnail's length, or why it is not in the body. */
export type BundledThumbnail =
  | { kind: 'bytes'; size: number }
  /** the library has no image at that path */
  | { kind: 'missing' }
  /** not made yet: ask the one-thumbnail route, which makes it */
  | { kind: 'separate' };

/** The sizes header read back; null when it is not one (an old host, a proxy's page). */
export function parseThumbnailSizes(
  header: string | null,
  expected: number,
): BundledThumbnail[] | null {
  if (header === null) return null;
  const entries = header.split(',').map((entry): BundledThumbnail | null => {
    if (entry === '-') return { kind: 'missing' };
    if (entry === '?') return { kind: 'separate' };
    return /^\d+$/.test(entry) ? { kind: 'bytes', size: Number(entry) } : null;
  });
  if (entries.length !== expected || entries.some((entry) => entry === null)) return null;
  return entries as BundledThumbnail[];
}
