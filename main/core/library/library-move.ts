import type { Dirent } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, rename, rmdir, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, sep } from 'node:path';
import { realLibraryPath, realPathOf } from './containment.ts';
import {
  defaultLibraryFs,
  errnoCode,
  fsyncDirectory,
  isTempFileName,
  removeQuietly,
  tempPathIn,
} from './library-fs.ts';

/** One file of the library to move: its path under the library (with the platform's separator). */
export interface LibraryFile {
  rel: string;
  bytes: number;
}

/** A file left where it is, and why (a link leading out of the library, a socket…). */
export interface LeftBehind {
  rel: string;
  reason: string;
}

/** A move the rules refuse, said for a person: nothing was touched. */
export class LibraryMoveRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LibraryMoveRefused';
  }
}

/**
 * Where a library may move: a full path, outside the library and not around it, that is an
 * empty folder or does not exist yet (it is made). A link is never the folder (its real place
 * is what would be written). Throws LibraryMoveRefused saying why; returns the target's real path.
 */
export async function checkMoveTarget(from: string, to: string): Promise<string> {
  if (!isAbsolute(to)) {
    throw new LibraryMoveRefused(`The new library folder must be a full path (got "${to}").`);
  }
  const [realFrom, realTo] = await Promise.all([realLibraryPath(from), realPathOf(to)]);
  if (realFrom === null || realTo === null) {
    throw new LibraryMoveRefused(
      `The folder ${to} cannot be resolved: its links loop or cannot be read.`,
    );
  }
  if (realTo === realFrom) throw new LibraryMoveRefused(`The library is already in ${to}.`);
  if (within(realTo, realFrom)) {
    throw new LibraryMoveRefused(
      `${to} is inside the library (${from}): choose a folder outside it.`,
    );
  }
  if (within(realFrom, realTo)) {
    throw new LibraryMoveRefused(
      `The library (${from}) is inside ${to}: choose a folder beside it, not around it.`,
    );
  }
  let entries: string[];
  try {
    const found = await lstat(to);
    if (found.isSymbolicLink()) {
      throw new LibraryMoveRefused(
        `${to} is a link: choose the folder it leads to (${realTo}) itself.`,
      );
    }
    if (!found.isDirectory()) throw new LibraryMoveRefused(`${to} is a file, not a folder.`);
    entries = await readdir(to);
  } catch (error) {
    if (error instanceof LibraryMoveRefused) throw error;
    if (errnoCode(error) === 'ENOENT') return realTo;
    throw new LibraryMoveRefused(`The folder ${to} cannot be read: ${(error as Error).message}.`);
  }
  if (entries.length > 0) {
    throw new LibraryMoveRefused(
      `${to} is not empty (${entries.length} item${entries.length === 1 ? '' : 's'}): the library moves only into an empty folder, so nothing there is mixed up or replaced.`,
    );
  }
  return realTo;
}

function within(path: string, root: string): boolean {
  const prefix = root.endsWith(sep) ? root : root + sep;
  return path.startsWith(prefix);
}

/**
 * Every file of the library, as the containment rule allows: links are never followed (a link
 * inside the library may lead anywhere), so one is left where it is and said; so is anything
 * that is neither a file nor a folder, and a write in progress (a temp file).
 */
export async function listLibrary(
  root: string,
  leftBehind: (left: LeftBehind) => void,
): Promise<LibraryFile[]> {
  const files: LibraryFile[] = [];
  const folders = [''];
  while (folders.length > 0) {
    const rel = folders.pop()!;
    let entries: Dirent[];
    try {
      entries = await readdir(join(root, rel), { withFileTypes: true });
    } catch (error) {
      if (rel === '' && errnoCode(error) === 'ENOENT') return files;
      throw error;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = rel === '' ? entry.name : join(rel, entry.name);
      if (entry.isDirectory()) folders.push(path);
      else if (entry.isSymbolicLink()) {
        leftBehind({ rel: path, reason: 'a link (never followed out of the library)' });
      } else if (!entry.isFile()) leftBehind({ rel: path, reason: 'neither a file nor a folder' });
      else if (!isTempFileName(entry.name)) {
        files.push({ rel: path, bytes: (await lstat(join(root, path))).size });
      }
    }
  }
  return files;
}

/**
 * One file copied into the new library: to a hidden temp file beside its place, flushed, then
 * renamed into place, so a crash leaves a whole file or none. A file already there with the
 * same size is this one copied before (a move resumed): it is kept.
 */
export async function copyOne(
  from: string,
  to: string,
  file: LibraryFile,
): Promise<'copied' | 'present'> {
  const target = join(to, file.rel);
  try {
    const found = await lstat(target);
    if (found.isFile() && found.size === file.bytes) return 'present';
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
  const folder = dirname(target);
  await mkdir(folder, { recursive: true });
  const temp = tempPathIn(folder);
  try {
    await copyFile(join(from, file.rel), temp);
    const handle = await defaultLibraryFs.open(temp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    // (into a folder that was empty when the move began: nothing of anyone else's is replaced)
    await rename(temp, target);
  } catch (error) {
    await removeQuietly(defaultLibraryFs, temp);
    throw error;
  }
  await fsyncDirectory(defaultLibraryFs, folder);
  return 'copied';
}

/**
 * Removes the files listed from `root` where they are as listed (the same size: a file
 * changed since is someone's, and stays), then the folders that are left empty, the root too.
 */
export async function removeListed(root: string, files: readonly LibraryFile[]): Promise<void> {
  const folders = new Set<string>();
  for (const file of files) {
    const path = join(root, file.rel);
    try {
      const found = await lstat(path);
      if (found.isFile() && found.size === file.bytes) await unlink(path);
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw error;
    }
    for (let rel = dirname(file.rel); rel !== '.'; rel = dirname(rel)) folders.add(rel);
  }
  // deepest first: a folder is empty only once its folders are gone
  const deepestFirst = [...folders].sort((a, b) => b.split(sep).length - a.split(sep).length);
  for (const rel of [...deepestFirst, '']) {
    await rmdir(join(root, rel)).catch(() => {});
  }
}

/** Bytes of the files, for the progress. */
export function totalBytes(files: readonly LibraryFile[]): number {
  return files.reduce((sum, file) => sum + file.bytes, 0);
}
