import { loadSharp } from './load-sharp.ts';
import { parseImageFormat, type ImageFormat } from './image-format.ts';
import { LibraryWriteError } from './write-error.ts';

export interface ImageFacts {
  format: ImageFormat;
  width: number;
  height: number;
}

/** The header's dimensions are usable and, when a size was requested, match it. */
export function checkDimensions(
  image: ImageFacts,
  expected?: { width: number; height: number },
): void {
  if (!(image.width > 0 && image.height > 0)) {
    throw new LibraryWriteError(
      'corrupt',
      `The ${image.format.toUpperCase()} header gives no usable dimensions ` +
        `(${image.width}x${image.height}).`,
    );
  }
  if (expected && (expected.width !== image.width || expected.height !== image.height)) {
    throw new LibraryWriteError(
      'wrong-size',
      `The image is ${image.width}x${image.height}, ` +
        `not the ${expected.width}x${expected.height} requested.`,
    );
  }
}

/**
 * Decodes every pixel of the file with an independent decoder (libvips) and checks that it
 * agrees with the header: the thorough check, for when a damaged image must not get through.
 */
export async function decodeImageFile(path: string, header: ImageFacts): Promise<void> {
  let decoded: { format: string; width: number; height: number };
  try {
    const sharp = await loadSharp();
    const metadata = await sharp(path).metadata();
    const { info } = await sharp(path, { failOn: 'error' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    decoded = { format: metadata.format, width: info.width, height: info.height };
  } catch (error) {
    throw new LibraryWriteError(
      'corrupt',
      `The image cannot be decoded: ${(error as Error).message}. Retry the download.`,
      { cause: error },
    );
  }
  if (parseImageFormat(decoded.format) !== header.format) {
    throw new LibraryWriteError(
      'wrong-format',
      `The decoder reads the file as ${decoded.format}, not ${header.format}.`,
      { detectedFormat: decoded.format },
    );
  }
  if (decoded.width !== header.width || decoded.height !== header.height) {
    throw new LibraryWriteError(
      'corrupt',
      `The decoded image is ${decoded.width}x${decoded.height} but its header says ` +
        `${header.width}x${header.height}.`,
    );
  }
}
