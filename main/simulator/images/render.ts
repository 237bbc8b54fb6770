import sharp, { type Sharp } from 'sharp';
import { createRandom, seedFrom } from '../random.ts';
import { hsl, paintPicture, stampWatermark } from './pixels.ts';
import { encodePng } from './png.ts';
import type { ImageFormat } from './request.ts';

/** Everything that decides one picture's bytes; a download re-renders from it. */
export interface RenderSpec {
  prompt: string;
  seed: number;
  /** Position in the answer's `data`. */
  index: number;
  width: number;
  height: number;
  format: ImageFormat;
  detail: string;
  watermark: boolean;
  /** Edits: digests of the input image and mask in the source store. */
  source: string | null;
  mask: string | null;
}

/** Edit inputs by digest (the uploaded or resolved bytes). */
export type SourceLookup = (digest: string) => Buffer | undefined;

export const CONTENT_TYPES: Readonly<Record<ImageFormat, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};
export const EXTENSIONS: Readonly<Record<ImageFormat, string>> = {
  png: 'png',
  jpeg: 'jpg',
  webp: 'webp',
};

/** Pictures up to this many pixels are painted at full size; bigger ones are painted smaller and scaled up. */
const PAINT_PIXELS = 256 * 256;
/** Up to this many pixels a PNG is encoded in JS: cheaper than a sharp call's fixed cost. */
const JS_PNG_PIXELS = 128 * 128;
/** An edited pixel: this much of the input's negative, of the tint, of the prompt's picture. */
const EDIT_NEGATIVE = 0.55;
const EDIT_TINT = 0.3;
const EDIT_PICTURE = 0.15;
/** Levels added to each channel outside the mask. */
const OUTSIDE_DRIFT = 6;

export function renderKey(spec: RenderSpec): string {
  return JSON.stringify([
    spec.prompt,
    spec.seed,
    spec.index,
    spec.width,
    spec.height,
    spec.format,
    spec.detail,
    spec.watermark,
    spec.source,
    spec.mask,
  ]);
}

/** The seed of one picture: same prompt, seed, index and settings → same picture. */
export function pictureSeed(spec: RenderSpec): number {
  return seedFrom(spec.prompt, spec.seed, spec.index, spec.detail, spec.source ?? '');
}

export async function renderImage(spec: RenderSpec, sources: SourceLookup): Promise<Buffer> {
  if (spec.source !== null) return renderEdit(spec, sources);
  const { width, height, format } = spec;
  const scale = Math.min(1, Math.sqrt(PAINT_PIXELS / (width * height)));
  const paintWidth = Math.max(1, Math.round(width * scale));
  const paintHeight = Math.max(1, Math.round(height * scale));
  const raw = paintPicture(paintWidth, paintHeight, pictureSeed(spec));
  if (spec.watermark) stampWatermark(raw, paintWidth, paintHeight);
  if (scale === 1 && format === 'png' && width * height <= JS_PNG_PIXELS) {
    return encodePng(raw, width, height);
  }
  let pipeline = sharp(raw, { raw: { width: paintWidth, height: paintHeight, channels: 3 } });
  if (scale < 1) pipeline = pipeline.resize(width, height, { fit: 'fill', kernel: 'nearest' });
  return encode(pipeline, format);
}

/**
 * An edit you can see: where the mask is transparent (everywhere, with no mask) the input is
 * turned to its negative and tinted with a colour of the prompt and seed, over a little of
 * the prompt's picture; elsewhere the input stays, drifted a few levels brighter, as real
 * models leave the rest of a picture almost but not quite alone (what "keep outside the
 * mask" repairs).
 */
async function renderEdit(spec: RenderSpec, sources: SourceLookup): Promise<Buffer> {
  const { width, height } = spec;
  const input = sourceBytes(sources, spec.source ?? '');
  const base = await sharp(input)
    .resize(width, height, { fit: 'cover' })
    .removeAlpha()
    .raw()
    .toBuffer();
  const overlay = paintPicture(width, height, pictureSeed(spec));
  const tint = hsl(createRandom(pictureSeed(spec) ^ 0x5eed)(), 0.85, 0.55);
  const keep =
    spec.mask === null
      ? null
      : await sharp(sourceBytes(sources, spec.mask))
          .resize(width, height, { fit: 'fill' })
          .ensureAlpha()
          .extractChannel(3)
          .raw()
          .toBuffer();
  for (let p = 0, i = 0; p < width * height; p++, i += 3) {
    // OpenAI convention: the transparent parts of the mask are the parts to change.
    const edited = keep === null || keep[p]! < 128;
    for (let c = 0; c < 3; c++) {
      const value = base[i + c]!;
      base[i + c] = edited
        ? (255 - value) * EDIT_NEGATIVE + tint[c]! * EDIT_TINT + overlay[i + c]! * EDIT_PICTURE
        : Math.min(255, value + OUTSIDE_DRIFT);
    }
  }
  if (spec.watermark) stampWatermark(base, width, height);
  if (spec.format === 'png' && width * height <= JS_PNG_PIXELS)
    return encodePng(base, width, height);
  return encode(sharp(base, { raw: { width, height, channels: 3 } }), spec.format);
}

function sourceBytes(sources: SourceLookup, digest: string): Buffer {
  const bytes = sources(digest);
  if (!bytes) throw new Error(`edit input ${digest} is no longer held; its links have expired`);
  return bytes;
}

function encode(pipeline: Sharp, format: ImageFormat): Promise<Buffer> {
  switch (format) {
    case 'png':
      return pipeline.png({ compressionLevel: 6 }).toBuffer();
    case 'jpeg':
      return pipeline.jpeg({ quality: 85 }).toBuffer();
    case 'webp':
      // the lowest effort: a simulator's pictures need speed, not size
      return pipeline.webp({ quality: 80, effort: 1 }).toBuffer();
  }
}
