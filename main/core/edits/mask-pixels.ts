/**
 * Masks as the gateway wants them (interface 2.4, OpenAI's convention): a PNG the picture's
 * size whose transparent pixels are the ones the model may change. Pure: alpha channels in,
 * pixels and decisions out; encoding is the caller's (mask-files.ts).
 */

export interface Size {
  width: number;
  height: number;
}

/** Alpha from this value up keeps its pixel; below, the model may change it. */
export const KEEP_FROM_ALPHA = 128;

export interface HardMask {
  /** RGBA, black everywhere, alpha 0 (may change) or 255 (kept): small as a PNG. */
  rgba: Buffer;
  /** Pixels the model may change. */
  edited: number;
  total: number;
}

/** How many pixels of an alpha channel the model may change. */
export function editablePixels(alpha: Uint8Array): number {
  let edited = 0;
  for (let p = 0; p < alpha.length; p++) if (alpha[p]! < KEEP_FROM_ALPHA) edited++;
  return edited;
}

/** One alpha channel as a hard-edged mask: no half-transparent pixel, nothing but black. */
export function hardMask(alpha: Uint8Array): HardMask {
  const rgba = Buffer.alloc(alpha.length * 4);
  let edited = 0;
  for (let p = 0; p < alpha.length; p++) {
    if (alpha[p]! >= KEEP_FROM_ALPHA) rgba[p * 4 + 3] = 255;
    else edited++;
  }
  return { rgba, edited, total: alpha.length };
}

/**
 * The most two aspect ratios may differ (relatively) and still count as the same: a mask
 * painted at one size and a picture saved at another round their sides differently.
 */
export const SAME_ASPECT_TOLERANCE = 0.01;

/**
 * How a mask fits a picture: at its size, scaled (same aspect ratio), or stretched to it (a
 * different ratio: what was masked lands elsewhere, so the person is warned).
 */
export type MaskFit =
  { kind: 'exact' } | { kind: 'scaled' } | { kind: 'stretched'; mask: string; picture: string };

export function maskFit(mask: Size, picture: Size): MaskFit {
  if (mask.width === picture.width && mask.height === picture.height) return { kind: 'exact' };
  const ratio = (size: Size) => size.width / size.height;
  const difference = Math.abs(ratio(mask) / ratio(picture) - 1);
  if (difference <= SAME_ASPECT_TOLERANCE) return { kind: 'scaled' };
  return { kind: 'stretched', mask: aspectText(mask), picture: aspectText(picture) };
}

/** "4:3", "16:9", or "1.85:1" when the sides share no small ratio. */
export function aspectText({ width, height }: Size): string {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const d = gcd(width, height);
  const [w, h] = [width / d, height / d];
  if (w <= 32 && h <= 32) return `${w}:${h}`;
  return width >= height ? `${(width / height).toFixed(2)}:1` : `1:${(height / width).toFixed(2)}`;
}

export const sizeText = ({ width, height }: Size) => `${width}×${height}`;
