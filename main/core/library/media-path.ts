import { stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { containment, realLibraryPath } from './containment.ts';
import { thumbnailPath } from './thumbnail.ts';

/** An image (or video) of the library, or the thumbnail made of one. */
export type MediaKind = 'image' | 'thumb';

const MEDIA_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp', '.mp4']);
// Encoded separators and NUL would change meaning after decoding: refused before it.
const ENCODED_DANGER = /%(2f|5c|00)/i;
// Separators, a drive's colon, and control characters have no place in a library name.
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARACTER = /[\\/:\u0000-\u001f\u007f]/;

/**
 * The file on disk that a URL path names inside the library, or null when it names
 * anything else. Both hosts (the desktop protocol, the web host) serve media through this
 * one check: `..`, encoded separators, absolute paths, hidden folders and symlinks leading
 * out are refused, and only regular media files are served.
 *
 * `rawPath` is the URL path after `/media/` or `/thumbs/`, still percent-encoded.
 */
export async function resolveMediaPath(
  libraryDir: string,
  rawPath: string,
  kind: MediaKind,
): Promise<string | null> {
  const segments = decodeSegments(rawPath);
  if (!segments) return null;
  const imagePath = join(libraryDir, ...segments);
  const path = kind === 'thumb' ? thumbnailPath(imagePath) : imagePath;
  return containedMedia(realLibraryPath(libraryDir), path);
}

/** What the thumbnail route can serve for a path: its thumbnail, or the image to make one of. */
export type ThumbnailSource = { thumbnail: string } | { image: string };

/**
 * The thumbnail of the image a `/thumbs/` path names, or when there is none yet the image
 * itself (both checked like resolveMediaPath), or null when neither is in the library.
 * `root`: the library's real path (realLibraryPath), when the caller checks many paths at once.
 */
export async function resolveThumbnailSource(
  libraryDir: string,
  rawPath: string,
  root?: Promise<string | null>,
): Promise<ThumbnailSource | null> {
  const segments = decodeSegments(rawPath);
  if (!segments) return null;
  const libraryRoot = root ?? realLibraryPath(libraryDir);
  const imagePath = join(libraryDir, ...segments);
  const thumbnail = await containedMedia(libraryRoot, thumbnailPath(imagePath));
  if (thumbnail) return { thumbnail };
  const image = await containedMedia(libraryRoot, imagePath);
  return image ? { image } : null;
}

/**
 * The real path of a regular media file inside the library (`root`, its real path), or null:
 * the library's one containment rule (containment.ts), then "a file, and there".
 */
async function containedMedia(root: Promise<string | null>, path: string): Promise<string | null> {
  if (!MEDIA_EXTENSIONS.has(extname(path).toLowerCase())) return null;
  const found = await containment(root, path);
  if (!found.inside) return null;
  try {
    return (await stat(found.real)).isFile() ? found.real : null;
  } catch {
    return null; // missing, or a link to nowhere
  }
}

/** The decoded path segments, or null if any is unsafe. Exported for the tests' table. */
export function decodeSegments(rawPath: string): string[] | null {
  if (rawPath.includes('\\') || ENCODED_DANGER.test(rawPath)) return null;
  const trimmed = rawPath.startsWith('/') ? rawPath.slice(1) : rawPath;
  if (trimmed === '') return null;
  const segments: string[] = [];
  for (const raw of trimmed.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null; // malformed escape
    }
    // '.' also refuses '..' and hidden folders (.thumbs, .atelier-unrecorded) by name
    if (segment === '' || segment.startsWith('.') || UNSAFE_CHARACTER.test(segment)) return null;
    segments.push(segment);
  }
  return segments;
}
