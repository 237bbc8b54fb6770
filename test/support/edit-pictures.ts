import { randomBytes } from 'node:crypto';
import sharp from 'sharp';

/** Pictures and masks for edit tests, made with sharp. */

export type Rgb = [number, number, number];

export function solid(
  width: number,
  height: number,
  rgb: Rgb,
  format: 'png' | 'jpeg' | 'webp' = 'png',
): Promise<Buffer> {
  const image = sharp({
    create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } },
  });
  return (
    format === 'png' ? image.png() : format === 'jpeg' ? image.jpeg() : image.webp()
  ).toBuffer();
}

/** Left half red, right half blue: which way up a picture is shows in its pixels. */
export async function halves(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      if (x < width / 2) raw[i] = 255;
      else raw[i + 2] = 255;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** A JPEG stored as `width`×`height` whose EXIF says: turn it 90° clockwise to show it. */
export async function sidewaysJpeg(width: number, height: number): Promise<Buffer> {
  return sharp(await halves(width, height))
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** Noise, which no PNG compresses: a file of about width×height×3 bytes. */
export function noise(width: number, height: number): Promise<Buffer> {
  const raw = randomBytes(width * height * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/** A mask: opaque everywhere but the rectangle, which is transparent (may change). */
export function rectMask(
  width: number,
  height: number,
  hole: { left: number; top: number; width: number; height: number },
): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inside =
        x >= hole.left && x < hole.left + hole.width && y >= hole.top && y < hole.top + hole.height;
      raw[(y * width + x) * 4 + 3] = inside ? 0 : 255;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

/** Width, height, channels and each pixel's values, for looking at what was made. */
export async function pixels(bytes: Buffer) {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const i = (y * info.width + x) * info.channels;
    return [...data.subarray(i, i + info.channels)];
  };
  return { width: info.width, height: info.height, channels: info.channels, data, at };
}
