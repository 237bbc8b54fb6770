import { createHash } from 'node:crypto';
import { loadSharp } from '../library/load-sharp.ts';
import { editablePixels, hardMask, type Size } from './mask-pixels.ts';

/**
 * The picture and mask an edit sends, made with sharp from what the person chose. The picture
 * is re-encoded as a PNG from its pixels with the EXIF orientation applied (as a browser shows
 * it, and as a mask is painted over it), so the mask made for it always has its size.
 */

/** Formats a picture to edit may come in; each is decoded and sent as a PNG. */
const READABLE_FORMATS: ReadonlySet<string> = new Set([
  'png',
  'jpeg',
  'webp',
  'gif',
  'tiff',
  'avif',
  'heif',
]);

/** The most pixels a picture to edit may have (the engine's own limit for an image). */
export const MAX_PICTURE_PIXELS = 100_000_000;

/** Why a picture or mask cannot be used, said for a person (the caller names which). */
export class PictureProblem extends Error {}

export interface PreparedPicture {
  /** The PNG to send. */
  png: Buffer;
  sha256: string;
  width: number;
  height: number;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** What sharp says of the bytes, or a problem naming what they are not. */
async function readable(bytes: Buffer, what: string) {
  const sharp = await loadSharp();
  let meta;
  try {
    meta = await sharp(bytes, { limitInputPixels: MAX_PICTURE_PIXELS }).metadata();
  } catch (error) {
    const reason = (error as Error).message;
    if (/pixel limit/i.test(reason)) {
      throw new PictureProblem(
        `${what} has more than ${MAX_PICTURE_PIXELS / 1e6} megapixels: make it smaller first.`,
      );
    }
    throw new PictureProblem(`${what} is not a picture Atelier can read (PNG, JPEG, WebP…).`);
  }
  if (!meta.format || !READABLE_FORMATS.has(meta.format)) {
    throw new PictureProblem(
      `${what} is a${meta.format ? ` ${meta.format.toUpperCase()}` : 'n unknown'} file; give a PNG, JPEG or WebP picture.`,
    );
  }
  if ((meta.pages ?? 1) > 1) {
    throw new PictureProblem(`${what} is animated (${meta.pages} frames); give a still picture.`);
  }
  if (!meta.width || !meta.height) throw new PictureProblem(`${what} has no size.`);
  return meta;
}

/** The picture as sent: its pixels upright, as a PNG (transparency kept). */
export async function preparePicture(
  bytes: Buffer,
  what = 'The picture',
): Promise<PreparedPicture> {
  await readable(bytes, what);
  const sharp = await loadSharp();
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_PICTURE_PIXELS })
      .rotate() // the EXIF orientation, applied
      .png({ compressionLevel: 6 })
      .toBuffer({ resolveWithObject: true });
    return { png: data, sha256: sha256(data), width: info.width, height: info.height };
  } catch (error) {
    throw new PictureProblem(`${what} could not be decoded: ${(error as Error).message}.`);
  }
}

/** A mask as given: its alpha channel, upright, at its own size. */
export interface MaskSource {
  alpha: Buffer;
  width: number;
  height: number;
}

/**
 * Reads a mask: any picture with transparency (its alpha is the mask), upright. One with no
 * alpha channel, or with no pixel transparent enough to change, is refused.
 */
export async function readMask(bytes: Buffer, what = 'The mask'): Promise<MaskSource> {
  const meta = await readable(bytes, what);
  if (!meta.hasAlpha) {
    throw new PictureProblem(
      `${what} has no transparency (alpha channel): make the area to change transparent and save it as a PNG.`,
    );
  }
  const sharp = await loadSharp();
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_PICTURE_PIXELS })
    .rotate()
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const alpha = Buffer.alloc(info.width * info.height);
  for (let p = 0, i = info.channels - 1; p < alpha.length; p++, i += info.channels) {
    alpha[p] = data[i]!;
  }
  if (editablePixels(alpha) === 0) {
    throw new PictureProblem(
      `${what} has no transparent pixel, so nothing would change: make the area to change transparent.`,
    );
  }
  return { alpha, width: info.width, height: info.height };
}

export interface PreparedMask {
  png: Buffer;
  sha256: string;
  /** Share of the picture the model may change, 0 to 1. */
  edited: number;
}

/**
 * The mask as sent for a picture of `size`: its alpha scaled (smoothly, then cut hard) to
 * that size, black under a hard-edged alpha. The caller decides whether the fit is fine.
 */
export async function maskFor(source: MaskSource, size: Size): Promise<PreparedMask> {
  let alpha = source.alpha;
  if (source.width !== size.width || source.height !== size.height) {
    const sharp = await loadSharp();
    alpha = await sharp(source.alpha, {
      raw: { width: source.width, height: source.height, channels: 1 },
    })
      .resize(size.width, size.height, { fit: 'fill', kernel: 'linear' })
      .extractChannel(0) // (sharp would write one band out as three)
      .raw()
      .toBuffer();
  }
  const mask = hardMask(alpha);
  const sharp = await loadSharp();
  const png = await sharp(mask.rgba, {
    raw: { width: size.width, height: size.height, channels: 4 },
  })
    .png({ compressionLevel: 9 })
    .toBuffer();
  return { png, sha256: sha256(png), edited: mask.edited / mask.total };
}
