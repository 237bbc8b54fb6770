import { dirname, extname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  asWriteError,
  refuseDifferentFile,
  writeFileAtomically,
  type TempFile,
} from './atomic-write.ts';
import { createEmbedTransform } from './embed-transform.ts';
import { finishImageBytes, type FinishOptions } from './finish-image.ts';
import { PlaceError, type FilePlacer } from './file-placer.ts';
import { parseImageFormat, type ImageFormat } from './image-format.ts';
import { abortedError, sourceChunks, type ImageSource } from './image-source.ts';
import { defaultLibraryFs, type LibraryFs } from './library-fs.ts';
import type { ImageMetadata } from './metadata.ts';
import { checkDimensions, decodeImageFile, type ImageFacts } from './verify-image.ts';

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
 * Writes one image into the library with writeFileAtomically: the source (bytes in memory, or
 * a download streamed) goes to the temp file with the metadata embedded, and is checked before
 * it is placed. On any failure nothing is left at the target, and a LibraryWriteError says why.
 */
export async function writeImage(
  source: ImageSource,
  targetPath: string,
  options: WriteImageOptions,
): Promise<WrittenImage> {
  const signal = options.signal;
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
  const { produced, bytes, sha256, alreadyPresent } = await writeFileAtomically(
    targetPath,
    async (temp) => {
      const written =
        source instanceof Uint8Array
          ? await writeFinishedBytes(temp, source, finish)
          : await streamEmbedded(temp, source, finish, signal);
      if (options.decodePixels) await decodeImageFile(temp.path, written.image);
      return written;
    },
    { fs: options.fs, signal, actions: IMAGE_ACTIONS },
  );
  const { image, sourceBytes } = produced;
  return { path: targetPath, bytes, sha256, sourceBytes, ...image, alreadyPresent };
}

const IMAGE_ACTIONS = { write: 'write the image', place: 'move the image into place' };

interface EmbeddedImage {
  image: ImageFacts;
  sourceBytes: number;
}

/** An image in memory: finished in one go, then written whole. */
async function writeFinishedBytes(
  temp: TempFile,
  source: Uint8Array,
  finish: FinishOptions,
): Promise<EmbeddedImage> {
  const { out, sha256, sourceBytes, ...image } = finishImageBytes(source, finish);
  await temp.writeWhole(out, sha256);
  return { image, sourceBytes };
}

/** A download: the metadata embedded as the chunks arrive, the size checked at the end. */
async function streamEmbedded(
  temp: TempFile,
  source: ImageSource,
  finish: FinishOptions,
  signal: AbortSignal | undefined,
): Promise<EmbeddedImage> {
  const { transform, stats } = createEmbedTransform(finish);
  await pipeline(
    sourceChunks(source, signal),
    transform,
    async (embedded: AsyncIterable<Buffer>) => {
      for await (const chunk of embedded) await temp.write(chunk);
    },
    signal ? { signal } : {},
  );
  const image = { format: stats.format!, width: stats.width, height: stats.height };
  checkDimensions(image, finish.expectedSize);
  return { image, sourceBytes: stats.sourceBytes };
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
    if (signal?.aborted) throw abortedError(signal);
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
    throw asWriteError(error, signal, action, targetPath);
  }
}
