import type { ImageFormat } from '../library/image-format.ts';
import { loadSharp } from '../library/load-sharp.ts';
import { maskFit } from './mask-pixels.ts';
import { MAX_PICTURE_PIXELS, PictureProblem } from './pictures.ts';

/**
 * "Keep outside the mask": models change pixels outside the mask too (colour, grain, a
 * shifted edge), so the result is pasted back over the picture through the mask, feathered a
 * little so the seam does not show. Where the mask kept the picture, the picture's own pixels
 * come back; where it let the model work, the result stays. Done locally with sharp (libvips's
 * threads, not the engine's loop), in the result's own format and size.
 */
export async function keepOutsideMask(
  result: Buffer,
  format: ImageFormat,
  picture: Buffer,
  mask: Buffer,
): Promise<Buffer> {
  const sharp = await loadSharp();
  const limit = { limitInputPixels: MAX_PICTURE_PIXELS };
  const meta = await sharp(result, limit).metadata();
  const [width, height] = [meta.width ?? 0, meta.height ?? 0];
  const source = await sharp(picture, limit).metadata();
  const size = { width, height };
  if (
    maskFit({ width: source.width ?? 0, height: source.height ?? 0 }, size).kind === 'stretched'
  ) {
    throw new PictureProblem(
      `the result is ${width}×${height}, another shape than the picture (${source.width}×${source.height}): nothing to paste back onto`,
    );
  }
  // a feather of about 2 px on a 1024 px picture, in proportion on others
  const sigma = Math.max(0.6, Math.min(width, height) / 512);
  const alpha = await sharp(mask, limit)
    .resize(width, height, { fit: 'fill' })
    .extractChannel(3)
    .raw()
    .toBuffer();
  // (sharp's options are not steps: a second extractChannel in one pipeline replaces the first)
  const keep = await sharp(alpha, { raw: { width, height, channels: 1 } })
    .blur(sigma)
    .extractChannel(0) // one band, as libvips would otherwise write three
    .raw()
    .toBuffer();
  const rgb = await sharp(picture, limit)
    .resize(width, height, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer();
  // (a second pipeline: in one, sharp removes the alpha after joining the channel)
  const original = await sharp(rgb, { raw: { width, height, channels: 3 } })
    .joinChannel(keep, { raw: { width, height, channels: 1 } })
    .raw()
    .toBuffer();
  const composed = await sharp(result, limit)
    .ensureAlpha()
    .composite([{ input: original, raw: { width, height, channels: 4 }, blend: 'over' }])
    .raw()
    .toBuffer();
  // the result's own channels: no alpha added to a picture that had none
  let pasted = sharp(composed, { raw: { width, height, channels: 4 } });
  if (!meta.hasAlpha) pasted = pasted.removeAlpha();
  switch (format) {
    case 'png':
      return pasted.png({ compressionLevel: 6 }).toBuffer();
    case 'jpeg':
      return pasted.jpeg({ quality: 95 }).toBuffer();
    case 'webp':
      return pasted.webp({ quality: 95 }).toBuffer();
  }
}
