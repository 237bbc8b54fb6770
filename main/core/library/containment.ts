import { constants, lstatSync } from 'node:fs';
import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { errnoCode } from './write-error.ts';

/**
 * The one rule for every file the library touches (read, written, trashed, exported, served):
 * a file is inside the library when its real path — every link on the way resolved, the part
 * not yet on disk taken as written — lies under the library folder's own real path. A text
 * check alone (`resolveInsideLibrary`) is fooled by a link inside the library that leads out.
 */

/** Refuses a link as the file itself when opening (0 where the platform has none: Windows). */
export const O_NOFOLLOW: number = constants.O_NOFOLLOW ?? 0;
/** A new file, never one already there nor a link: temp and part files. */
export const CREATE_NEW_FILE =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW;
/** Appending to a file (created when missing), never through a link. */
export const APPEND_NO_FOLLOW =
  constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | O_NOFOLLOW;
/** Reading a file that is no link (the real path the check gave). */
export const READ_NO_FOLLOW = constants.O_RDONLY | O_NOFOLLOW;

/** Links followed at most while resolving one path (as the kernel's own limit). */
const MAX_LINKS = 40;

/** A file the rule refused: which one, where it really leads, and why. */
export class OutsideLibraryError extends Error {
  /** The path as asked. */
  readonly path: string;
  /** Where it really leads, when that could be worked out. */
  readonly realPath: string | null;

  constructor(action: string, path: string, realPath: string | null, library: string) {
    const where = realPath === null ? 'somewhere that cannot be resolved' : realPath;
    super(
      `Refusing to ${action} ${path}: a link on its way leads outside the library ` +
        `(${library}), to ${where}. Atelier only touches files inside the library; remove ` +
        'the link, or move the file into the library.',
    );
    this.name = 'OutsideLibraryError';
    this.path = path;
    this.realPath = realPath;
  }
}

/**
 * Where `path` really is: the real path of its deepest existing ancestor (links resolved, a
 * dangling link followed to where it points) with the rest appended. Never fails for a path
 * that does not exist; null when the links loop or a part of the way cannot be read.
 */
export async function realPathOf(path: string, hops = 0): Promise<string | null> {
  const absolute = resolve(path);
  try {
    return await realpath(absolute);
  } catch (error) {
    const code = errnoCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return null;
  }
  // It is not all there: a dangling link to follow, or a name not made yet under its parent.
  if (hops >= MAX_LINKS) return null;
  try {
    if ((await lstat(absolute)).isSymbolicLink()) {
      const target = await readlink(absolute);
      return realPathOf(isAbsolute(target) ? target : join(dirname(absolute), target), hops + 1);
    }
  } catch (error) {
    const code = errnoCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return null;
  }
  const parent = dirname(absolute);
  if (parent === absolute) return absolute;
  const realParent = await realPathOf(parent, hops);
  return realParent === null ? null : join(realParent, basename(absolute));
}

/**
 * realPathOf for a file about to be made: one look at the name first (lstat), and where there
 * is nothing, or no link, its folder's real path with the name appended. The same answer as
 * realPathOf, in two calls instead of three for a name not on disk yet.
 */
export async function realPathOfNew(path: string): Promise<string | null> {
  const absolute = resolve(path);
  try {
    // Synchronous, and no error for "nothing there" (every new image's case): the promise's
    // ENOENT error, its stack captured, cost ~25 µs of the engine's thread per image where
    // this costs ~1 µs (a look at one name, as the name's reservation does).
    if (lstatSync(absolute, { throwIfNoEntry: false })?.isSymbolicLink()) {
      return realPathOf(absolute);
    }
  } catch (error) {
    const code = errnoCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return null;
  }
  const parent = dirname(absolute);
  if (parent === absolute) return absolute;
  const realParent = await realPathOf(parent);
  return realParent === null ? null : join(realParent, basename(absolute));
}

/** The library folder's real path (it need not exist yet: see realPathOf). */
export async function realLibraryPath(libraryDir: string): Promise<string | null> {
  return realPathOf(libraryDir);
}

/** What the rule says of one path: its real path when inside, or where it leads instead. */
export type Containment = { inside: true; real: string } | { inside: false; real: string | null };

/**
 * Whether `path` lies strictly inside the library whose real path is `root` (a string, or the
 * promise of one when many paths are checked together), and its real path.
 */
export async function containment(
  root: string | null | Promise<string | null>,
  path: string,
  resolvePath: (path: string) => Promise<string | null> = realPathOf,
): Promise<Containment> {
  const [rootPath, real] = await Promise.all([root, resolvePath(path)]);
  if (rootPath === null || real === null) return { inside: false, real };
  const prefix = rootPath.endsWith(sep) ? rootPath : rootPath + sep;
  return real.length > prefix.length && real.startsWith(prefix)
    ? { inside: true, real }
    : { inside: false, real };
}

/**
 * The real path of `path` when it lies inside the library, else an OutsideLibraryError saying
 * which file, where it leads and why. `action` reads like "trash" or "write the thumbnail".
 * Act on the path returned: it is the one that was checked. `resolvePath`: realPathOfNew for
 * a file about to be made.
 */
export async function realPathInside(
  libraryDir: string,
  path: string,
  action: string,
  root: string | null | Promise<string | null> = realLibraryPath(libraryDir),
  resolvePath?: (path: string) => Promise<string | null>,
): Promise<string> {
  const found = await containment(root, path, resolvePath);
  if (found.inside) return found.real;
  throw new OutsideLibraryError(action, path, found.real, libraryDir);
}
