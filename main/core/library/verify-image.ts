import { createEmbedder } from './embed-transform.ts';
import { loadSharp } from './load-sharp.ts';
import { parseImageFormat, type ImageFormat } from './image-format.ts';
import type { ImageMetadata } from './metadata.ts';
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

/** Planners need metadata to plan with; inspecting writes nothing, so any will do. */
const PROBE_METADATA: ImageMetadata = {
  prompt: '',
  model: '',
  size: '',
  index: 0,
  batch: '',
  createdAt: '',
};

/**
 * The header only (format, dimensions, the pixel limit): cheap enough for the engine's thread
 * before an answer counts as a success. The whole structure is checked when the file is written.
 */
export function inspectImageHeader(
  bytes: Uint8Array,
  limits: { maxPixels?: number } = {},
): ImageFacts {
  const embedder = createEmbedder({
    metadata: PROBE_METADATA,
    expectedFormat: null,
    ...(limits.maxPixels === undefined ? {} : { maxPixels: limits.maxPixels }),
  });
  const whole = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at < whole.length && embedder.stats.width === 0; at += HEADER_STEP) {
    embedder.write(whole.subarray(at, at + HEADER_STEP));
  }
  const { format, width, height } = embedder.stats;
  if (width === 0) {
    throw new LibraryWriteError('corrupt', 'The image ends before its header says its size.');
  }
  const image: ImageFacts = { format: format!, width, height };
  checkDimensions(image);
  return image;
}

/** Small steps: a header is in the first bytes, and the rest need not be parsed here. */
const HEADER_STEP = 4 * 1024;

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
