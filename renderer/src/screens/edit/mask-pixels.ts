/**
 * The mask's pixels, pure: the painted layer's alpha in and out, the mask as the gateway wants
 * it (interface 2.4: a PNG the picture's size, transparent where the picture may change), and
 * a mask file read back as paint.
 */

/** Paint from this alpha up counts (the brush's soft edge cut in half, as the core cuts it). */
export const PAINTED_FROM = 128;

/** The colour the mask is painted in (shown half transparent over the picture). */
export const PAINT_RGB: readonly [number, number, number] = [255, 48, 96];

/** The alpha channel of RGBA pixels. */
export function alphaOf(rgba: Uint8ClampedArray): Uint8Array {
  const alpha = new Uint8Array(rgba.length / 4);
  for (let p = 0, i = 3; p < alpha.length; p++, i += 4) alpha[p] = rgba[i]!;
  return alpha;
}

/** RGBA pixels of the paint colour with this alpha (what a step puts back on the canvas). */
export function paintOf(alpha: Uint8Array): Uint8ClampedArray<ArrayBuffer> {
  const rgba = new Uint8ClampedArray(alpha.length * 4);
  const [r, g, b] = PAINT_RGB;
  for (let p = 0, i = 0; p < alpha.length; p++, i += 4) {
    const a = alpha[p]!;
    if (a === 0) continue;
    rgba[i] = r;
    rgba[i + 1] = g;
    rgba[i + 2] = b;
    rgba[i + 3] = a;
  }
  return rgba;
}

/**
 * The mask as sent, from the painted layer's RGBA: black everywhere, transparent where it is
 * painted (the picture may change there), opaque elsewhere; hard-edged, no half-transparent
 * pixel. Written into `out` (RGBA of the same size); returns how many pixels are painted.
 */
export function hardMask(layer: Uint8ClampedArray, out: Uint8ClampedArray): number {
  let painted = 0;
  for (let i = 3; i < layer.length; i += 4) {
    if (layer[i]! >= PAINTED_FROM) painted++;
    else out[i] = 255; // (out starts all zero: black, transparent)
  }
  return painted;
}

/** How a mask file was read. */
export type MaskConvention = 'transparency' | 'brightness';

/**
 * A mask file's pixels (RGBA, already at the picture's size) as paint: painted where the file
 * is transparent, as the gateway's masks are. A file with no transparency at all is a black and
 * white mask of the kind Stable Diffusion tools save: painted where it is light.
 */
export function paintFromMaskFile(rgba: Uint8ClampedArray): {
  alpha: Uint8Array;
  convention: MaskConvention;
  painted: number;
} {
  const alpha = new Uint8Array(rgba.length / 4);
  let opaque = true;
  for (let i = 3; i < rgba.length; i += 4) {
    if (rgba[i]! < 255) {
      opaque = false;
      break;
    }
  }
  let painted = 0;
  for (let p = 0, i = 0; p < alpha.length; p++, i += 4) {
    const paint = opaque
      ? // light: the brightness of the pixel (Rec. 601 weights), from half up
        rgba[i]! * 0.299 + rgba[i + 1]! * 0.587 + rgba[i + 2]! * 0.114 >= PAINTED_FROM
      : rgba[i + 3]! < PAINTED_FROM;
    if (paint) {
      alpha[p] = 255;
      painted++;
    }
  }
  return { alpha, convention: opaque ? 'brightness' : 'transparency', painted };
}
