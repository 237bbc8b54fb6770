import { basename, dirname, join } from 'node:path';
import type { OutputInfo } from 'sharp';
import { loadSharp } from './load-sharp.ts';
import { replaceFileAtomically } from './atomic-write.ts';
import { OutsideLibraryError, realPathInside } from './containment.ts';
import { defaultLibraryFs, type LibraryFs } from './library-fs.ts';
import { fromFsError, LibraryWriteError } from './write-error.ts';

export interface ThumbnailOptions {
  /**
   * The library folder: the thumbnail is written only where its real path is inside it (a
   * `.thumbs` folder or file planted as a link out is refused), never through a link.
   */
  library: string;
  /** Where thumbnails go; by default a `.thumbs` folder beside the image. */
  dir?: string;
  /** Longest side in pixels (default 256); smaller images are not enlarged. */
  maxSide?: number;
  /** WebP quality 1-100 (default 70). */
  quality?: number;
  /** Refuse a source that claims more pixels (sharp's own limit when not given). */
  maxPixels?: number;
  fs?: LibraryFs;
}

export interface Thumbnail {
  path: string;
  width: number;
  height: number;
  bytes: number;
}

/** `<dir>/<image file name>.webp`: keeps a.png and a.jpg apart. */
export function thumbnailPath(imagePath: string, dir?: string): string {
  return join(dir ?? join(dirname(imagePath), '.thumbs'), `${basename(imagePath)}.webp`);
}

/** Makes a small WebP of the image and writes it atomically (an old one is replaced). */
export function writeThumbnail(imagePath: string, options: ThumbnailOptions): Promise<Thumbnail> {
  return encodeThumbnail(imagePath, imagePath, options);
}

/**
 * Makes the thumbnail of `mediaPath` (a video's poster) from the bytes of a still image
 * (JPEG, PNG, WebP) and writes it where writeThumbnail would, at the same size and quality.
 */
export function writeThumbnailFromBytes(
  bytes: Uint8Array,
  mediaPath: string,
  options: ThumbnailOptions,
): Promise<Thumbnail> {
  return encodeThumbnail(
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    mediaPath,
    options,
  );
}

/** Resizes and encodes `input` (a file or bytes) as the WebP thumbnail of `mediaPath`. */
async function encodeThumbnail(
  input: string | Buffer,
  mediaPath: string,
  options: ThumbnailOptions,
): Promise<Thumbnail> {
  const fs = options.fs ?? defaultLibraryFs;
  const maxSide = options.maxSide ?? 256;
  const path = thumbnailPath(mediaPath, options.dir);
  let encoded: { data: Buffer; info: OutputInfo };
  try {
    const sharp = await loadSharp();
    const limit = options.maxPixels === undefined ? {} : { limitInputPixels: options.maxPixels };
    encoded = await sharp(input, limit)
      .rotate() // honour EXIF orientation
      .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: options.quality ?? 70 })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    const reason = (error as Error).message;
    const what =
      typeof input === 'string'
        ? `${mediaPath}: ${reason}. The image may be missing or damaged; retry its download.`
        : `${mediaPath} from the image received for it: ${reason}. It is no image sharp reads.`;
    throw new LibraryWriteError('corrupt', `Could not make a thumbnail of ${what}`, {
      cause: error,
    });
  }
  try {
    // its real path, checked: the folder made and the file written are the ones checked
    const real = await realPathInside(options.library, path, 'write the thumbnail');
    await fs.mkdir(dirname(real), { recursive: true });
    await replaceFileAtomically(fs, real, encoded.data);
  } catch (error) {
    if (error instanceof OutsideLibraryError) {
      throw new LibraryWriteError('unwritable', error.message, { cause: error });
    }
    throw fromFsError(error, 'write the thumbnail', path);
  }
  return {
    path,
    width: encoded.info.width,
    height: encoded.info.height,
    bytes: encoded.data.length,
  };
}
