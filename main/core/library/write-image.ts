import { createHash } from 'node:crypto';
import { dirname, extname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FileHandle } from 'node:fs/promises';
import { createEmbedTransform } from './embed-transform.ts';
import { finishImageBytes, type FinishOptions } from './finish-image.ts';
import { PlaceError, type FilePlacer } from './file-placer.ts';
import { parseImageFormat, type ImageFormat } from './image-format.ts';
import { abortedError, sourceChunks, type ImageSource } from './image-source.ts';
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
import type { ImageMetadata } from './metadata.ts';
import { checkDimensions, decodeImageFile, type ImageFacts } from './verify-image.ts';
import { fromFsError, LibraryWriteError } from './write-error.ts';

export interface WriteImageOptions {
  metadata: ImageMetadata;
  /** The format the target expects; by default the one its extension names. */
  format?: ImageFormat;
  /**
   * The body length announced beforehand (Content-Length), when known and the body is not
   * content-encoded; a body that ends short of it fails as 'truncated'.
   */
  expectedBytes?: number;
  /** The dimensions requested; a different image fails as 'wrong-size'. */
  expectedSize?: { width: number; height: number };
  /** Most pixels the header may claim; more fails as 'too-many-pixels' before the rest is read. */
  maxPixels?: number;
  /**
   * Also decode every pixel with libvips (slower). By default the checks are the format magic,
   * the header's dimensions and the structure (complete header, end marker or declared length).
   */
  decodePixels?: boolean;
  signal?: AbortSignal;
  fs?: LibraryFs;
  /**
   * Puts bytes already in memory on disk from its own thread (far less CPU on this one). Not
   * used with `fs` (tests inject failures there) or `decodePixels` (which reads the temp file).
   */
  placer?: FilePlacer;
}

export interface WrittenImage {
  path: string;
  /** Size of the file on disk, metadata included. */
  bytes: number;
  /** sha256 (hex) of the file on disk. */
  sha256: string;
  /** Bytes received from the source (the gateway's image without our metadata). */
  sourceBytes: number;
  width: number;
  height: number;
  format: ImageFormat;
  /** True when the identical file was already at the target (a repeated write after a crash). */
  alreadyPresent: boolean;
}

/** What the library records of an image file (its sidecar, its manifest row). */
export type ImageFileFacts = Pick<
  WrittenImage,
  'path' | 'bytes' | 'sha256' | 'width' | 'height' | 'format'
>;

/**
 * Writes one image into the library: streams the source to a hidden temp file beside the
 * target while embedding the metadata and hashing, checks the result, fsyncs it, then links
 * it into place without ever overwriting a different file. On any failure the temp file is
 * removed, nothing is left at the target, and a LibraryWriteError says why.
 */
export async function writeImage(
  source: ImageSource,
  targetPath: string,
  options: WriteImageOptions,
): Promise<WrittenImage> {
  const fs = options.fs ?? defaultLibraryFs;
  const signal = options.signal;
  const dir = dirname(targetPath);
  const expectedFormat = options.format ?? parseImageFormat(extname(targetPath));
  // (the embedding options, plus the size a finished image is checked against)
  const finish: FinishOptions = {
    metadata: options.metadata,
    expectedFormat,
    expectedSourceBytes: options.expectedBytes,
    expectedSize: options.expectedSize,
    maxPixels: options.maxPixels,
  };
  if (source instanceof Uint8Array && options.placer && !options.fs && !options.decodePixels) {
    return placeBytes(options.placer, source, targetPath, finish, signal);
  }
  let temp: string | null = null;
  let handle: FileHandle | null = null;
  let action = 'create the image folder';
  try {
    throwIfAborted(signal);
    action = 'write the image';
    temp = tempPathIn(dir);
    handle = await openInFolder(fs, dir, temp);

    let image: ImageFacts;
    let bytes = 0;
    let sha256: string;
    let sourceBytes: number;
    if (source instanceof Uint8Array) {
      const finished = finishImageBytes(source, finish);
      ({ sha256, sourceBytes } = finished);
      image = { format: finished.format, width: finished.width, height: finished.height };
      bytes = finished.out.length;
      await writeAll(handle, finished.out);
    } else {
      const hash = createHash('sha256');
      const { transform, stats } = createEmbedTransform(finish);
      const file = handle;
      await pipeline(
        sourceChunks(source, signal),
        transform,
        async (embedded: AsyncIterable<Buffer>) => {
          for await (const chunk of embedded) {
            hash.update(chunk);
            bytes += chunk.length;
            await writeAll(file, chunk);
          }
        },
        signal ? { signal } : {},
      );
      // Checked before the fsync, so a bad image costs no disk flush.
      image = { format: stats.format!, width: stats.width, height: stats.height };
      checkDimensions(image, options.expectedSize);
      sha256 = hash.digest('hex');
      sourceBytes = stats.sourceBytes;
    }
    if (options.decodePixels) await decodeImageFile(temp, image);
    await handle.sync();
    await handle.close();
    handle = null;

    throwIfAborted(signal);
    action = 'move the image into place';
    const placed = await placeWithoutOverwrite(fs, temp, targetPath);
    if (placed === 'exists') {
      await refuseDifferentFile(fs, targetPath, sha256);
      await removeQuietly(fs, temp);
    }
    temp = null;
    await syncDirectory(fs, dir);
    return {
      path: targetPath,
      bytes,
      sha256,
      sourceBytes,
      ...image,
      alreadyPresent: placed === 'exists',
    };
  } catch (error) {
    if (handle) await handle.close().catch(() => undefined);
    if (temp) await removeQuietly(fs, temp);
    throw classify(error, signal, action, targetPath);
  }
}

/** writeImage for bytes in memory, through the placer's thread: same checks, same result. */
async function placeBytes(
  placer: FilePlacer,
  source: Uint8Array,
  targetPath: string,
  finish: FinishOptions,
  signal: AbortSignal | undefined,
): Promise<WrittenImage> {
  try {
    throwIfAborted(signal);
    const { placed, ...image } = await placer.place(
      dirname(targetPath),
      targetPath,
      source,
      finish,
    );
    if (!placed) await refuseDifferentFile(defaultLibraryFs, targetPath, image.sha256);
    return { path: targetPath, ...image, alreadyPresent: !placed };
  } catch (error) {
    const action = error instanceof PlaceError ? error.action : 'write the image';
    throw classify(error, signal, action, targetPath);
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortedError(signal);
}

function classify(
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
async function refuseDifferentFile(fs: LibraryFs, target: string, sha256: string): Promise<void> {
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
