import { realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { decodeSegments } from '../core/library/media-path.ts';

/**
 * The file of the built renderer that a URL path names, or null. The same per-segment
 * decoding as media (`..`, encoded separators and NUL, backslashes, dot-files refused), then
 * the real path must stay inside the renderer folder (a symlink out is refused) and be a
 * regular file. `/` is the index page. Never `join(dir, url.pathname)`: that one walks out.
 */
export async function resolveRendererFile(
  rendererDir: string,
  rawPath: string,
): Promise<string | null> {
  const segments = decodeSegments(rawPath === '' || rawPath === '/' ? '/index.html' : rawPath);
  if (!segments) return null;
  try {
    const [root, real] = await Promise.all([
      realpath(rendererDir),
      realpath(join(rendererDir, ...segments)),
    ]);
    if (!real.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
    return (await stat(real)).isFile() ? real : null;
  } catch {
    return null; // missing, or a link to nowhere
  }
}
