import { createHash, type Hash } from 'node:crypto';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FileHandle } from 'node:fs/promises';
import { CREATE_NEW_FILE } from './containment.ts';
import { abortedError } from './image-source.ts';
import {
  defaultLibraryFs,
  openInFolder,
  placeWithoutOverwrite,
  removeQuietly,
  syncDirectory,
  tempPathIn,
  writeAll,
  type LibraryFs,
} from './library-fs.ts';
import { fromFsError, LibraryWriteError } from './write-error.ts';

/** The temp file a producer fills; everything written through it is counted and hashed. */
export interface TempFile {
  /** Its path, for a check that reads the file back before it is placed. */
  readonly path: string;
  /** Bytes written so far. */
  readonly bytes: number;
  /** Appends a chunk, hashing it. */
  write(chunk: Uint8Array): Promise<void>;
  /**
   * Writes the whole file at once from bytes whose sha256 (hex) is already known, so they are
   * not hashed twice. Only on a temp file nothing else was written to.
   */
  writeWhole(bytes: Uint8Array, sha256: string): Promise<void>;
}

export interface AtomicWriteOptions {
  fs?: LibraryFs | undefined;
  signal?: AbortSignal | undefined;
  /** What failed, for the error message: writing the temp file, or putting it in place. */
  actions: { write: string; place: string };
}

export interface AtomicallyWritten<T> {
  /** What the producer returned. */
  produced: T;
  /** Size of the file. */
  bytes: number;
  /** sha256 (hex) of the file. */
  sha256: string;
  /** True when the identical file was already at the target (a repeated write after a crash). */
  alreadyPresent: boolean;
}

/**
 * Writes a file into the library without ever leaving a part of it or replacing another:
 * `produce` fills a hidden temp file beside the target (hashed as it is written) and checks
 * what it wrote, before the fsync so that a bad file costs no disk flush. The temp file is
 * then fsynced and linked into place only where no file is (a file already there counts as
 * written when its content is identical, else 'target-exists'), and the folder fsynced. On
 * any failure the temp file is removed and a LibraryWriteError says why.
 */
export async function writeFileAtomically<T>(
  targetPath: string,
  produce: (file: TempFile) => Promise<T>,
  options: AtomicWriteOptions,
): Promise<AtomicallyWritten<T>> {
  const fs = options.fs ?? defaultLibraryFs;
  const { signal, actions } = options;
  const dir = dirname(targetPath);
  let temp: string | null = null;
  let handle: FileHandle | null = null;
  let action = actions.write;
  try {
    throwIfAborted(signal);
    temp = tempPathIn(dir);
    handle = await openInFolder(fs, dir, temp);
    const file = new HashingTempFile(handle, temp);
    const produced = await produce(file);
    const sha256 = file.digest();
    await handle.sync();
    await handle.close();
    handle = null;

    throwIfAborted(signal);
    action = actions.place;
    const placed = await placeWithoutOverwrite(fs, temp, targetPath);
    if (placed === 'exists') {
      await refuseDifferentFile(fs, targetPath, sha256);
      await removeQuietly(fs, temp);
    }
    temp = null;
    await syncDirectory(fs, dir);
    return { produced, bytes: file.bytes, sha256, alreadyPresent: placed === 'exists' };
  } catch (error) {
    if (handle) await handle.close().catch(() => undefined);
    if (temp) await removeQuietly(fs, temp);
    throw asWriteError(error, signal, action, targetPath);
  }
}

/**
 * Writes a small file (a sidecar, a thumbnail) that replaces any file at `path`: temp beside
 * it (created new, never through a link), fsync, rename over (which replaces a link at `path`,
 * never what it points to), fsync the folder, so readers see the old content or the new,
 * never a part.
 */
export async function replaceFileAtomically(
  fs: LibraryFs,
  path: string,
  data: Uint8Array,
): Promise<void> {
  const dir = dirname(path);
  const temp = tempPathIn(dir);
  let done = false;
  try {
    const handle = await fs.open(temp, CREATE_NEW_FILE);
    try {
      await writeAll(handle, data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, path);
    done = true;
    await syncDirectory(fs, dir);
  } finally {
    if (!done) await removeQuietly(fs, temp);
  }
}

class HashingTempFile implements TempFile {
  bytes = 0;
  private hash: Hash | null = null;
  private knownSha256: string | null = null;

  private readonly handle: FileHandle;
  readonly path: string;

  constructor(handle: FileHandle, path: string) {
    this.handle = handle;
    this.path = path;
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (this.knownSha256 !== null) throw new Error('write() after writeWhole()');
    (this.hash ??= createHash('sha256')).update(chunk);
    this.bytes += chunk.length;
    await writeAll(this.handle, chunk);
  }

  async writeWhole(bytes: Uint8Array, sha256: string): Promise<void> {
    if (this.bytes > 0 || this.knownSha256 !== null) throw new Error('writeWhole() after a write');
    this.knownSha256 = sha256;
    this.bytes = bytes.length;
    await writeAll(this.handle, bytes);
  }

  digest(): string {
    return this.knownSha256 ?? (this.hash ?? createHash('sha256')).digest('hex');
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortedError(signal);
}

/** The error to report for a failed write: `action` reads like "write the image". */
export function asWriteError(
  error: unknown,
  signal: AbortSignal | undefined,
  action: string,
  targetPath: string,
): LibraryWriteError {
  // A cancelled download also fails its stream: the cancellation is the reason to store.
  if (signal?.aborted) return abortedError(signal);
  if (error instanceof LibraryWriteError) return error;
  return fromFsError(error, action, targetPath);
}

/** An identical file already there is success (a repeated write); a different one is not. */
export async function refuseDifferentFile(
  fs: LibraryFs,
  target: string,
  sha256: string,
): Promise<void> {
  const hash = createHash('sha256');
  const handle = await fs.open(target, 'r');
  try {
    await pipeline(handle.createReadStream({ autoClose: false }), hash);
  } finally {
    await handle.close();
  }
  if (hash.digest('hex') !== sha256) {
    throw new LibraryWriteError(
      'target-exists',
      `A different file already exists at ${target}; Atelier never overwrites a file. ` +
        'Move or rename it, then retry the download.',
    );
  }
}
