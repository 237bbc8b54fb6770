import * as nodeFs from 'node:fs/promises';
import { lstatSync, mkdirSync, type Dirent } from 'node:fs';
import { containment, realLibraryPath } from './containment.ts';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { errnoCode } from './write-error.ts';

export { errnoCode };

/**
 * The file-system calls the library makes, so a test can inject failures (a full disk) that
 * cannot be produced for real. Defaults to node:fs/promises.
 */
export type LibraryFs = Pick<
  typeof nodeFs,
  'open' | 'link' | 'rename' | 'unlink' | 'mkdir' | 'readFile' | 'lstat' | 'readdir' | 'truncate'
>;

export const defaultLibraryFs: LibraryFs = nodeFs;

/** Link errors of file systems without hard links (FAT, some network shares). */
export const NO_HARD_LINKS: ReadonlySet<string> = new Set([
  'EPERM',
  'ENOTSUP',
  'EOPNOTSUPP',
  'ENOSYS',
  'EMLINK',
]);
/** A folder that cannot be opened to fsync it (Windows, some file systems): nothing to do. */
export const NO_FOLDER_OPEN: ReadonlySet<string> = new Set(['EISDIR', 'EPERM', 'EACCES']);
/** A folder fsync the file system does not support: nothing to do. */
export const NO_FOLDER_SYNC: ReadonlySet<string> = new Set(['EINVAL', 'EBADF', 'EPERM', 'ENOTSUP']);

/** Temp files are hidden, beside their target (same volume, so rename is atomic). */
export const TEMP_PREFIX = '.atelier-';
const TEMP_SUFFIX = '.tmp';

/** Random per process, so two processes writing into one folder never pick the same name. */
const PROCESS_TAG = randomBytes(6).toString('hex');
let tempCounter = 0;

/**
 * A fresh temp path in `dir`; short and fixed-length, so it never hits a name-length limit.
 * A counter after the process's random tag: random bytes per file cost a system call each.
 */
export function tempPathIn(dir: string): string {
  tempCounter = (tempCounter + 1) >>> 0;
  const count = tempCounter.toString(16).padStart(8, '0');
  return join(dir, `${TEMP_PREFIX}${PROCESS_TAG}${count}${TEMP_SUFFIX}`);
}

export function isTempFileName(name: string): boolean {
  return name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX);
}

export async function removeQuietly(fs: LibraryFs, path: string): Promise<void> {
  try {
    await fs.unlink(path);
  } catch {
    // Already gone, or the volume went away: nothing more can be done here.
  }
}

/** Opens a new file, creating its folder only when missing: one syscall, not two, per image. */
export async function openInFolder(
  fs: LibraryFs,
  dir: string,
  path: string,
): Promise<nodeFs.FileHandle> {
  try {
    return await fs.open(path, 'wx');
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
    await makeFolder(fs, dir);
    return fs.open(path, 'wx');
  }
}

/**
 * `mkdir -p` that fails with the real reason. Node's recursive mkdir reports ENOENT when a
 * folder cannot be created on a read-only volume (or under an unwritable parent): one level at
 * a time, the failing mkdir says EROFS, EACCES or ENOTDIR.
 */
export async function makeFolder(
  fs: Pick<LibraryFs, 'mkdir' | 'lstat'>,
  dir: string,
): Promise<void> {
  try {
    await fs.mkdir(dir, { recursive: true });
    return;
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
  const exists = (path: string) =>
    fs.lstat(path).then(
      () => true,
      () => false,
    );
  // (a component that is a file counts as existing: the mkdir under it says ENOTDIR)
  const missing: string[] = [];
  for (let at = dir; !(await exists(at)) && dirname(at) !== at; at = dirname(at)) {
    missing.unshift(at);
  }
  for (const folder of missing) {
    await fs.mkdir(folder).catch((error: unknown) => {
      if (errnoCode(error) !== 'EEXIST') throw error;
    });
  }
}

/** makeFolder, blocking (the file placer's thread, the CLI's data folder). */
export function makeFolderSync(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    return;
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
  const exists = (path: string) => {
    try {
      lstatSync(path);
      return true;
    } catch {
      return false;
    }
  };
  const missing: string[] = [];
  for (let at = dir; !exists(at) && dirname(at) !== at; at = dirname(at)) missing.unshift(at);
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw error;
    }
  }
}

/** Makes a rename or link in `dir` durable. Some platforms (Windows) cannot open a folder. */
export async function fsyncDirectory(fs: LibraryFs, dir: string): Promise<void> {
  let handle: nodeFs.FileHandle;
  try {
    handle = await fs.open(dir, 'r');
  } catch (error) {
    if (NO_FOLDER_OPEN.has(errnoCode(error) ?? '')) return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!NO_FOLDER_SYNC.has(errnoCode(error) ?? '')) throw error;
  } finally {
    await handle.close();
  }
}

/** Per folder: the fsync running now, and the one queued to start after it. */
const directorySyncs = new Map<string, { running: Promise<void>; queued: Promise<void> | null }>();

/**
 * fsyncDirectory, shared between concurrent callers (group commit): a caller arriving while a
 * folder fsync runs waits for the next one, which starts after its rename and so covers it.
 * Many images finishing together in one batch folder then cost a few fsyncs, not one each.
 */
export function syncDirectory(fs: LibraryFs, dir: string): Promise<void> {
  const state = directorySyncs.get(dir);
  if (state) {
    state.queued ??= state.running.then(
      () => startSync(fs, dir),
      () => startSync(fs, dir),
    );
    return state.queued;
  }
  return startSync(fs, dir);
}

function startSync(fs: LibraryFs, dir: string): Promise<void> {
  const running = fsyncDirectory(fs, dir);
  const state = { running, queued: null };
  directorySyncs.set(dir, state);
  const done = () => {
    if (directorySyncs.get(dir) === state) directorySyncs.delete(dir);
  };
  running.then(done, done);
  return running;
}

/** Writes all of `data` at the handle's current position. */
export async function writeAll(handle: nodeFs.FileHandle, data: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    offset += bytesWritten;
  }
}

/**
 * Moves a finished temp file to `target` without ever replacing an existing file: a hard
 * link fails atomically when the target exists. Where links are not supported (FAT, some
 * network shares) it falls back to check-then-rename, which has a small race the naming
 * module's unique names make harmless.
 */
export async function placeWithoutOverwrite(
  fs: LibraryFs,
  temp: string,
  target: string,
): Promise<'placed' | 'exists'> {
  try {
    await fs.link(temp, target);
    await removeQuietly(fs, temp);
    return 'placed';
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EEXIST') return 'exists';
    if (!NO_HARD_LINKS.has(code ?? '')) throw error;
  }
  try {
    await fs.lstat(target);
    return 'exists';
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
  await fs.rename(temp, target);
  return 'placed';
}

/**
 * Deletes temp files a crash left in `dir` or the folders under it (a naming template may nest
 * folders in a batch's), older than `olderThanMs` so writes in progress are spared. Links are
 * never followed (Node's recursive readdir would), and with `library` given, a `dir` that a
 * link leads out of the library is left alone (containment.ts). Returns how many were removed.
 */
export async function removeStaleTempFiles(
  dir: string,
  options: { olderThanMs?: number; fs?: LibraryFs; now?: number; library?: string } = {},
): Promise<number> {
  const fs = options.fs ?? defaultLibraryFs;
  const cutoff = (options.now ?? Date.now()) - (options.olderThanMs ?? 60_000);
  if (options.library !== undefined) {
    const found = await containment(realLibraryPath(options.library), dir);
    if (!found.inside) return 0;
  }
  let removed = 0;
  const folders = [dir];
  while (folders.length > 0) {
    const folder = folders.pop()!;
    let entries: Dirent[];
    try {
      entries = await fs.readdir(folder, { withFileTypes: true });
    } catch (error) {
      if (errnoCode(error) === 'ENOENT' || folder !== dir) continue;
      throw error;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) folders.push(path);
      if (!entry.isFile() || !isTempFileName(entry.name)) continue;
      try {
        if ((await fs.lstat(path)).mtimeMs > cutoff) continue;
        await fs.unlink(path);
        removed += 1;
      } catch {
        // Removed meanwhile by someone else: fine.
      }
    }
  }
  return removed;
}
