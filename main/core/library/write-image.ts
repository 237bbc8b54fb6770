import { createHash } from 'node:crypto';
import { dirname, extname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FileHandle } from 'node:fs/promises';
import {
  createEmbedder,
  createEmbedTransform,
  type EmbedStats,
  type EmbedTransformOptions,
} from './embed-transform.ts';
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
  const embedOptions = {
    metadata: options.metadata,
    expectedFormat,
    expectedSourceBytes: options.expectedBytes,
  };
  if (source instanceof Uint8Array && options.placer && !options.fs && !options.decodePixels) {
    return placeBytes(options.placer, source, targetPath, embedOptions, options);
  }
  let temp: string | null = null;
  let handle: FileHandle | null = null;
  let action = 'create the image folder';
  try {
    throwIfAborted(signal);
    action = 'write the image';
    temp = tempPathIn(dir);
    handle = await openInFolder(fs, dir, temp);

    const hash = createHash('sha256');
    let bytes = 0;
    let stats: EmbedStats;
    if (source instanceof Uint8Array) {
      const embedded = embedInMemory(source, embedOptions);
      hash.update(embedded.out);
      bytes = embedded.out.length;
      await writeAll(handle, embedded.out);
      stats = embedded.stats;
    } else {
      const { transform, stats: streamed } = createEmbedTransform(embedOptions);
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
      stats = streamed;
    }
    // Checked before the fsync, so a bad image costs no disk flush.
    const image: ImageFacts = { format: stats.format!, width: stats.width, height: stats.height };
    checkDimensions(image, options.expectedSize);
    if (options.decodePixels) await decodeImageFile(temp, image);
    await handle.sync();
    await handle.close();
    handle = null;

    const sha256 = hash.digest('hex');

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
      sourceBytes: stats.sourceBytes,
      ...image,
      alreadyPresent: placed === 'exists',
    };
  } catch (error) {
    if (handle) await handle.close().catch(() => undefined);
    if (temp) await removeQuietly(fs, temp);
    throw classify(error, signal, action, targetPath);
  }
}

/**
 * Bytes already in memory (decoded base64): embedded in one go, without the stream machinery,
 * which costs more than the write itself for small images.
 */
function embedInMemory(
  source: Uint8Array,
  options: EmbedTransformOptions,
): { out: Buffer; stats: EmbedStats } {
  const embedder = createEmbedder(options);
  const whole = Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  const out = Buffer.concat([...embedder.write(whole), ...embedder.end()]);
  return { out, stats: embedder.stats };
}

/** writeImage for bytes in memory, through the placer's thread: same checks, same result. */
async function placeBytes(
  placer: FilePlacer,
  source: Uint8Array,
  targetPath: string,
  embedOptions: EmbedTransformOptions,
  options: WriteImageOptions,
): Promise<WrittenImage> {
  const { signal } = options;
  try {
    throwIfAborted(signal);
    const { out, stats } = embedInMemory(source, embedOptions);
    // Checked before anything reaches the disk, so a bad image costs no write.
    const image: ImageFacts = { format: stats.format!, width: stats.width, height: stats.height };
    checkDimensions(image, options.expectedSize);
    const sha256 = createHash('sha256').update(out).digest('hex');
    throwIfAborted(signal);
    const placed = await placer.place(dirname(targetPath), targetPath, out);
    if (!placed) await refuseDifferentFile(defaultLibraryFs, targetPath, sha256);
    return {
      path: targetPath,
      bytes: out.length,
      sha256,
      sourceBytes: stats.sourceBytes,
      ...image,
      alreadyPresent: !placed,
    };
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
