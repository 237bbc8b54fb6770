import { MAX_COMPONENT_BYTES, sanitizeComponent, trimEnds } from './portable-name.ts';
import { isAscii, truncateUtf8, utf8Length } from './utf8.ts';

/** Room a rendered file name keeps for a collision suffix (up to ~9999). */
export const SUFFIX_ROOM_BYTES = 6;
const BATCH_DIR_MAX_BYTES = 80;

/**
 * The key two paths collide on: Windows and macOS compare names case-insensitively and
 * macOS also across Unicode normal forms. Store and compare this, not the path.
 */
export function pathKey(relPath: string): string {
  // ASCII is its own NFC: the normalization (an ICU call) is skipped
  return (isAscii(relPath) ? relPath : relPath.normalize('NFC')).toLowerCase();
}

/** relPath, then relPath with ~2, ~3… before the extension. */
export function* nameCandidates(relPath: string): Generator<string> {
  yield relPath;
  const slash = relPath.lastIndexOf('/');
  const dir = relPath.slice(0, slash + 1);
  const file = relPath.slice(slash + 1);
  const dot = file.lastIndexOf('.');
  const stem = dot > 0 ? file.slice(0, dot) : file;
  const ext = dot > 0 ? file.slice(dot) : '';
  for (let n = 2; n < 100_000; n++) {
    const suffix = `~${n}`;
    const room = MAX_COMPONENT_BYTES - utf8Length(ext) - suffix.length;
    yield `${dir}${trimEnds(truncateUtf8(stem, room))}${suffix}${ext}`;
  }
}

/**
 * The first candidate not taken. `isTaken` should compare pathKey()s; to reserve a name
 * atomically among concurrent writers, iterate nameCandidates against the store instead.
 */
export function uniqueName(relPath: string, isTaken: (candidate: string) => boolean): string {
  for (const candidate of nameCandidates(relPath)) if (!isTaken(candidate)) return candidate;
  throw new Error(`Every name like "${relPath}" is taken: rename or move some files.`);
}

/** The library's folder for exports' zips (export-destination.ts): never a batch's folder. */
export const EXPORTS_FOLDER = 'Exports';
const KEPT_FOLDERS = new Set([pathKey(EXPORTS_FOLDER)]);

/**
 * A folder name for a new batch, unique (see uniqueName) among the library's batches, and
 * never the folder kept for exports (a batch named "Exports" gets `Exports~2`).
 */
export function batchDirName(batchName: string, isTaken: (candidate: string) => boolean): string {
  return uniqueName(
    sanitizeComponent(batchName, 'batch', BATCH_DIR_MAX_BYTES),
    (candidate) => KEPT_FOLDERS.has(pathKey(candidate)) || isTaken(candidate),
  );
}
