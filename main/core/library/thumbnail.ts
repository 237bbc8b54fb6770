import { basename, dirname, join } from 'node:path';
import type { OutputInfo } from 'sharp';
import { loadSharp } from './load-sharp.ts';
import { replaceFileAtomically } from './atomic-write.ts';
import { defaultLibraryFs, type LibraryFs } from './library-fs.ts';
import { fromFsError, LibraryWriteError } from './write-error.ts';

export interface ThumbnailOptions {
  /** Where thumbnails go; by default a `.thumbs` folder beside the image. */
  dir?: string;
  /** Longest side in pixels (default 256); smaller images are not enlarged. */
  maxSide?: number;
  /** WebP quality 1-100 (default 70). */
  quality?: number;
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
export async function writeThumbnail(
  imagePath: string,
  options: ThumbnailOptions = {},
): Promise<Thumbnail> {
  const fs = options.fs ?? defaultLibraryFs;
  const maxSide = options.maxSide ?? 256;
  const path = thumbnailPath(imagePath, options.dir);
  let encoded: { data: Buffer; info: OutputInfo };
  try {
    const sharp = await loadSharp();
    encoded = await sharp(imagePath)
      .rotate() // honour EXIF orientation
      .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: options.quality ?? 70 })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new LibraryWriteError(
      'corrupt',
      `Could not make a thumbnail of ${imagePath}: ${(error as Error).message}. ` +
        'The image may be missing or damaged; retry its download.',
      { cause: error },
    );
  }
  try {
    await fs.mkdir(dirname(path), { recursive: true });
    await replaceFileAtomically(fs, path, encoded.data);
  } catch (error) {
    throw fromFsError(error, 'write the thumbnail', path);
  }
  return {
    path,
    width: encoded.info.width,
    height: encoded.info.height,
    bytes: encoded.data.length,
  };
}
