import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { lstat, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { Transform, type Readable, type Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import {
  containment,
  CREATE_NEW_FILE,
  READ_NO_FOLLOW,
  realLibraryPath,
} from '../library/containment.ts';
import { defaultLibraryFs, errnoCode, placeWithoutOverwrite } from '../library/library-fs.ts';
import { csvRow } from '../library/csv.ts';
import { EntryNames } from './entry-names.ts';
import { EXPORT_MANIFEST_COLUMNS, exportManifestRow, type ExportRecord } from './manifest-rows.ts';

export const MANIFEST_NAME = 'manifest.csv';

export interface ZipExportProgress {
  /** Images handled: in the zip, or noted missing in the manifest. */
  done: number;
  /** Zip bytes written so far. */
  bytes: number;
}

export interface ZipExportOptions {
  /** The zip's final path: written under a fresh hidden name beside it, placed when complete. */
  dest: string;
  /**
   * The file at `dest` the person agreed to replace (the save dialog asked), held open since;
   * closed when the export ends. Any other file found at `dest` then is left alone and the
   * export fails.
   */
  replaces?: FileHandle | null;
  records: Iterable<ExportRecord> | AsyncIterable<ExportRecord>;
  /** Aborting stops the export and removes what it wrote. */
  signal?: AbortSignal;
  onProgress?: (progress: ZipExportProgress) => void;
  /** Files opened ahead of the one being written (default 4): bounds open handles. */
  ahead?: number;
}

export interface ZipExportReport extends ZipExportProgress {
  /** Images written into the zip. */
  written: number;
  /** Images whose file could not be read: listed in the manifest with a note, not in the zip. */
  missing: number;
}

/** The export's own files beside `dest`: fresh names, so nothing of the person's is touched. */
function partNames(dest: string): { part: string; manifestPart: string } {
  const stem = join(dirname(dest), `.${basename(dest)}.${randomBytes(6).toString('hex')}`);
  return { part: `${stem}.part`, manifestPart: `${stem}.manifest.part` };
}

/**
 * Streams images and a CSV manifest of their metadata into a zip on disk: files are read with
 * streams and written as they come (the zip is never in memory), at the pace the disk takes
 * them. Images are stored (already compressed), the manifest deflated; its rows go to a part
 * file meanwhile, since the zip gets it last. A file missing on disk, or leading out of the
 * library through a link, is noted in the manifest and the export goes on.
 *
 * It writes only files it made: its two part files get fresh names and are created new (never
 * an existing file, never through a link), and the finished zip is linked into place without
 * replacing whatever appeared at `dest` meanwhile (only the file the person agreed to replace).
 * On abort or failure both part files are removed.
 */
export async function writeExportZip(options: ZipExportOptions): Promise<ZipExportReport> {
  // (loaded on an export's start, not with the service: every CLI start paid for it and zlib)
  const { ZipFile } = await import('yazl');
  const { dest, records } = options;
  const { part, manifestPart } = partNames(dest);
  const stop = new AbortController();
  const fail = (error: unknown) => {
    if (!stop.signal.aborted) stop.abort(error);
  };
  const onOuterAbort = () => fail(options.signal?.reason ?? new Error('The export was canceled.'));
  if (options.signal?.aborted) onOuterAbort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });

  const progress = { done: 0, bytes: 0 };
  const report = () => options.onProgress?.({ ...progress });
  const zip = new ZipFile();
  zip.on('error', fail);
  const count = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      progress.bytes += chunk.length;
      callback(null, chunk);
    },
  });
  const opened = new Set<{ handle: FileHandle; stream: Readable | null }>();
  const room = new Room(options.ahead ?? 4, stop.signal);
  const roots = new Map<string, Promise<string | null>>();
  const rootOf = (libraryDir: string) => {
    let root = roots.get(libraryDir);
    if (!root) roots.set(libraryDir, (root = realLibraryPath(libraryDir)));
    return root;
  };
  let output: Writable | null = null;
  let manifest: Writable | null = null;
  let manifestFile: FileHandle | null = null;
  // what this export created, and so may remove
  const made = new Set<string>();
  let written: Promise<void> = Promise.resolve();
  let inZip = 0;
  let missing = 0;
  const note = async (record: ExportRecord, why: string) => {
    missing += 1;
    const row = exportManifestRow(null, record, `not in the zip: ${record.relPath} ${why}`);
    await writeLine(manifest!, csvRow(row), stop.signal);
    progress.done += 1;
    report();
  };

  try {
    output = (await open(part, CREATE_NEW_FILE)).createWriteStream();
    made.add(part);
    written = pipeline(zip.outputStream as Readable, count, output, { signal: stop.signal });
    written.catch(fail);
    manifest = (await open(manifestPart, CREATE_NEW_FILE)).createWriteStream();
    made.add(manifestPart);
    manifest.on('error', fail);
    await writeLine(manifest, csvRow(EXPORT_MANIFEST_COLUMNS), stop.signal);
    const names = new EntryNames([MANIFEST_NAME]);
    const next = nextOf(records, stop.signal);
    for (let item = await next(); !item.done; item = await next()) {
      const record = item.value;
      await room.wait();
      if (stop.signal.aborted) break;
      const found = await containment(rootOf(record.libraryDir), record.absolutePath);
      if (!found.inside) {
        await note(
          record,
          `leads outside the library, to ${found.real ?? 'a path that cannot be resolved'}`,
        );
        continue;
      }
      let handle: FileHandle;
      try {
        handle = await open(found.real, READ_NO_FOLLOW);
      } catch (error) {
        await note(
          record,
          `is ${errnoCode(error) === 'ENOENT' ? 'not found on disk' : unreadable(error)}`,
        );
        continue;
      }
      const held = { handle, stream: null as Readable | null };
      opened.add(held);
      const stat = await handle.stat();
      const name = names.claim(record.relPath);
      await writeLine(manifest, csvRow(exportManifestRow(name, record)), stop.signal);
      room.take();
      zip.addReadStreamLazy(
        name,
        { compress: false, mtime: stat.mtime, size: stat.size },
        (callback) => {
          const stream = handle.createReadStream();
          held.stream = stream;
          stream.once('error', fail);
          stream.once('end', () => {
            inZip += 1;
            progress.done += 1;
            report();
          });
          stream.once('close', () => {
            opened.delete(held);
            room.give();
          });
          callback(null, stream);
        },
      );
    }
    if (stop.signal.aborted) throw stop.signal.reason;
    manifest.end();
    await finished(manifest);
    const manifestRead = (manifestFile = await open(manifestPart, READ_NO_FOLLOW));
    zip.addReadStreamLazy(MANIFEST_NAME, { compress: true, mtime: new Date() }, (callback) => {
      const stream = manifestRead.createReadStream();
      stream.once('error', fail);
      callback(null, stream);
    });
    zip.end();
    await written;
    if (stop.signal.aborted) throw stop.signal.reason;
    await placeZip(part, dest, options.replaces ?? null);
    report();
    return { ...progress, written: inZip, missing };
  } catch (error) {
    fail(error);
    for (const held of opened) {
      held.stream?.destroy();
      await held.handle.close().catch(() => {});
    }
    manifest?.destroy();
    output?.destroy();
    await manifestFile?.close().catch(() => {});
    await written.catch(() => {});
    throw stop.signal.reason ?? error;
  } finally {
    options.signal?.removeEventListener('abort', onOuterAbort);
    await options.replaces?.close().catch(() => {});
    const remove = async (file: string) => {
      if (made.has(file)) await rm(file, { force: true }).catch(() => {});
    };
    await remove(manifestPart);
    if (stop.signal.aborted) await remove(part);
  }
}

/**
 * Puts the finished zip at `dest` without replacing a file that appeared there meanwhile: a
 * hard link fails if anything is there. Only the very file the person agreed to replace in the
 * save dialog (same device and inode) is replaced.
 */
async function placeZip(part: string, dest: string, replaces: FileHandle | null): Promise<void> {
  if ((await placeWithoutOverwrite(defaultLibraryFs, part, dest)) === 'placed') return;
  const [there, agreed] = await Promise.all([
    lstat(dest).catch(() => null),
    replaces?.stat().catch(() => null),
  ]);
  if (there && agreed && there.dev === agreed.dev && there.ino === agreed.ino) {
    await rename(part, dest);
    return;
  }
  throw new Error(
    `a file appeared at ${dest} while the export was written. Atelier never replaces a file ` +
      'it did not make, so that file was left as it is and this zip was not kept; export ' +
      'again to another name.',
  );
}

/** Pulls from the records, giving up when the export stops (a slow source is not waited for). */
function nextOf(
  records: Iterable<ExportRecord> | AsyncIterable<ExportRecord>,
  signal: AbortSignal,
): () => Promise<IteratorResult<ExportRecord, unknown>> {
  const iterator =
    Symbol.asyncIterator in records ? records[Symbol.asyncIterator]() : records[Symbol.iterator]();
  const stopped = new Promise<IteratorResult<ExportRecord, unknown>>((resolve) => {
    const end = () => resolve({ done: true, value: undefined });
    if (signal.aborted) end();
    else signal.addEventListener('abort', end, { once: true });
  });
  return () => Promise.race([Promise.resolve(iterator.next()), stopped]);
}

function unreadable(error: unknown): string {
  return `unreadable (${errnoCode(error) ?? (error instanceof Error ? error.message : 'error')})`;
}

/** Writes a line, waiting for the stream to drain when its buffer is full. */
async function writeLine(stream: Writable, line: string, signal: AbortSignal): Promise<void> {
  if (signal.aborted || stream.write(line)) return;
  if (stream.destroyed) return; // it failed: the export stops with its error
  await new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    stream.on('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** A count of places; `wait` resolves when one is free, or when the export stops. */
class Room {
  private free: number;
  private waiter: (() => void) | null = null;
  private readonly signal: AbortSignal;

  constructor(size: number, signal: AbortSignal) {
    this.free = size;
    this.signal = signal;
    signal.addEventListener('abort', () => this.wake(), { once: true });
  }

  wait(): Promise<void> {
    if (this.free > 0 || this.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => (this.waiter = resolve));
  }

  take(): void {
    this.free -= 1;
  }

  give(): void {
    this.free += 1;
    this.wake();
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.();
  }
}
