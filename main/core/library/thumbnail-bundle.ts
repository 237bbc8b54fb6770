import { readFile } from 'node:fs/promises';
import {
  THUMBNAIL_BUNDLE_MAX,
  THUMBNAIL_SIZES_HEADER,
} from '../../../shared/api/thumbnail-bundle.ts';
import { realLibraryPath } from './containment.ts';
import { resolveThumbnailSource } from './media-path.ts';

/**
 * Many thumbnails in one answer, for the gallery's grid (`/thumb-bundle?p=…&p=…` on the page's
 * origin in both hosts). A browser spends a few milliseconds of its own on every request
 * however small the file, one after another: a screenful of 25 thumbnails took ~100 ms as 25
 * requests and ~5 ms as one. The body is the thumbnails one after
 * another in the order asked; the sizes header lists their lengths, with `-` for a path the
 * library has no image at and `?` for an image whose thumbnail is not made yet (the client asks
 * the one-thumbnail route for it, which makes it, so a bundle never waits for a make).
 *
 * `rawPaths` are as after `/thumbs/` (still percent-encoded); every one is checked like a
 * `/thumbs/` request (media-path.ts). Returns null when the list is empty or too long.
 */
export async function thumbnailBundle(
  libraryDir: string,
  rawPaths: string[],
): Promise<Response | null> {
  if (rawPaths.length === 0 || rawPaths.length > THUMBNAIL_BUNDLE_MAX) return null;
  const root = realLibraryPath(libraryDir); // once for the whole bundle
  const files = await Promise.all(
    rawPaths.map(async (raw): Promise<Buffer | '-' | '?'> => {
      const source = await resolveThumbnailSource(libraryDir, raw, root);
      if (!source) return '-';
      if (!('thumbnail' in source)) return '?';
      try {
        return await readFile(source.thumbnail);
      } catch {
        return '?'; // replaced or removed since: the one-thumbnail route sorts it out
      }
    }),
  );
  const parts = files.filter((file) => typeof file !== 'string');
  return new Response(Buffer.concat(parts), {
    headers: {
      'Content-Type': 'application/octet-stream',
      [THUMBNAIL_SIZES_HEADER]: files
        .map((file) => (typeof file === 'string' ? file : file.byteLength))
        .join(','),
      // asked for once, for whatever the grid shows at that moment
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
