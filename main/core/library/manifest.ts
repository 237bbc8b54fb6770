import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { APPEND_NO_FOLLOW, O_NOFOLLOW, READ_NO_FOLLOW } from './containment.ts';
import { completeRecordsLength, csvRow, hasRecordStartingWith, type CsvValue } from './csv.ts';
import { defaultLibraryFs, errnoCode, writeAll, type LibraryFs } from './library-fs.ts';
import type { ImageMetadata } from './metadata.ts';
import type { ImageFileFacts } from './write-image.ts';
import { fromFsError } from './write-error.ts';

export const MANIFEST_COLUMNS = [
  'file',
  'prompt',
  'negative_prompt',
  'model',
  'size',
  'seed',
  'index',
  'width',
  'height',
  'format',
  'bytes',
  'sha256',
  'request_id',
  'batch',
  'created_at',
] as const;

/** An image's `file` column: relative to the manifest's folder, with forward slashes. */
export function manifestFileName(manifestPath: string, imagePath: string): string {
  return relative(dirname(resolve(manifestPath)), resolve(imagePath))
    .split(sep)
    .join('/');
}

/** One manifest row. */
export function manifestRow(
  manifestPath: string,
  image: ImageFileFacts,
  metadata: ImageMetadata,
): CsvValue[] {
  return [
    manifestFileName(manifestPath, image.path),
    metadata.prompt,
    metadata.negativePrompt,
    metadata.model,
    metadata.size,
    metadata.seed,
    metadata.index,
    image.width,
    image.height,
    image.format,
    image.bytes,
    image.sha256,
    metadata.requestId,
    metadata.batch,
    metadata.createdAt,
  ];
}

/** Appends run one at a time per manifest, so rows of images finishing together never mix. */
const queues = new Map<string, Promise<void>>();
/** Manifests whose tail this process has already checked for a row torn by a crash. */
const checked = new Set<string>();

export interface AppendManifestOptions {
  fs?: LibraryFs;
  /** fsync after each row (default true). */
  durable?: boolean;
  /**
   * Append only if no row lists the file yet: for an image found already in place after a
   * crash, whose row may have been appended before it. Reads the manifest, so only for that
   * rare case, never per image.
   */
  unlessListed?: boolean;
}

/**
 * Appends one image's row to a batch's manifest.csv, writing the header first when the file
 * is new or empty. A row cut short by an earlier crash is removed before the first append.
 * Resolves to false when `unlessListed` found the file listed already (nothing appended).
 */
export function appendManifestRow(
  manifestPath: string,
  image: ImageFileFacts,
  metadata: ImageMetadata,
  options: AppendManifestOptions = {},
): Promise<boolean> {
  const key = resolve(manifestPath);
  const row = csvRow(manifestRow(key, image, metadata));
  // (looked for in the queue, so a row appended by an earlier call is seen)
  const listed = options.unlessListed ? manifestFileName(key, image.path) : null;
  const previous = queues.get(key) ?? Promise.resolve();
  const next = previous.then(() => appendNow(key, row, listed, options));
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return next;
}

async function appendNow(
  path: string,
  row: string,
  listed: string | null,
  options: AppendManifestOptions,
): Promise<boolean> {
  const fs = options.fs ?? defaultLibraryFs;
  try {
    await fs.mkdir(dirname(path), { recursive: true });
    if (!checked.has(path)) {
      await cutTornRow(fs, path);
      checked.add(path);
    }
    if (listed !== null && (await listsFile(fs, path, listed))) return false;
    // never through a link: a manifest.csv planted as one would take rows into another file
    const handle = await fs.open(path, APPEND_NO_FOLLOW);
    try {
      const empty = (await handle.stat()).size === 0;
      const text = empty ? csvRow([...MANIFEST_COLUMNS]) + row : row;
      await writeAll(handle, Buffer.from(text, 'utf8'));
      if (options.durable !== false) await handle.sync();
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    throw fromFsError(error, 'append to the manifest', path);
  }
}

async function listsFile(fs: LibraryFs, path: string, file: string): Promise<boolean> {
  const content = await readManifest(fs, path, READ_NO_FOLLOW);
  return content !== null && hasRecordStartingWith(content.bytes, file);
}

async function cutTornRow(fs: LibraryFs, path: string): Promise<void> {
  await readManifest(fs, path, constants.O_RDWR | O_NOFOLLOW, (bytes, handle) => {
    const complete = completeRecordsLength(bytes);
    return complete < bytes.length ? handle.truncate(complete) : undefined;
  });
}

/**
 * The manifest's bytes (null when there is none yet), read through a handle opened with
 * `flags` (never through a link), then `then` with the same handle before it is closed.
 */
async function readManifest(
  fs: LibraryFs,
  path: string,
  flags: number,
  then?: (bytes: Buffer, handle: FileHandle) => Promise<void> | undefined,
): Promise<{ bytes: Buffer } | null> {
  let handle: FileHandle;
  try {
    handle = await fs.open(path, flags);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw error;
  }
  try {
    const bytes = await handle.readFile();
    await then?.(bytes, handle);
    return { bytes };
  } finally {
    await handle.close();
  }
}
