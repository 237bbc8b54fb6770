/**
 * A picture in YUV 4:2:0 (I420), padded to whole 16×16 macroblocks. `width`/`height` are the
 * visible size; the padding repeats the last column and row, and the SPS crops it away.
 */
export interface Yuv420 {
  width: number;
  height: number;
  /** Padded luma size: multiples of 16. */
  lumaWidth: number;
  lumaHeight: number;
  y: Uint8Array;
  /** Cb and Cr planes, (lumaWidth / 2) × (lumaHeight / 2) each. */
  u: Uint8Array;
  v: Uint8Array;
}

const roundUp16 = (n: number) => Math.ceil(n / 16) * 16;

/** BT.601 limited range (Y 16–235, Cb/Cr 16–240) in 8-bit fixed point, as libswscale does. */
const lumaOf = (r: number, g: number, b: number) => ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16;
const cbOf = (r: number, g: number, b: number) => ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128;
const crOf = (r: number, g: number, b: number) => ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128;

/**
 * Converts packed 8-bit RGB (3 bytes a pixel, rows top to bottom) to padded YUV 4:2:0: each
 * chroma sample comes from the average colour of its 2×2 block of pixels.
 */
export function rgbToYuv420(rgb: Uint8Array, width: number, height: number): Yuv420 {
  if (width < 1 || height < 1 || rgb.length !== width * height * 3) {
    throw new Error(`Expected ${width}×${height}×3 RGB bytes; got ${rgb.length}.`);
  }
  const lumaWidth = roundUp16(width);
  const lumaHeight = roundUp16(height);
  const chromaWidth = lumaWidth / 2;
  const y = new Uint8Array(lumaWidth * lumaHeight);
  const u = new Uint8Array(chromaWidth * (lumaHeight / 2));
  const v = new Uint8Array(u.length);
  // The pixel a padded position shows: the nearest visible one.
  const at = (px: number, py: number) =>
    (Math.min(py, height - 1) * width + Math.min(px, width - 1)) * 3;
  for (let py = 0; py < lumaHeight; py++) {
    for (let px = 0; px < lumaWidth; px++) {
      const i = at(px, py);
      y[py * lumaWidth + px] = lumaOf(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!);
    }
  }
  for (let cy = 0; cy < lumaHeight / 2; cy++) {
    for (let cx = 0; cx < chromaWidth; cx++) {
      let [r, g, b] = [0, 0, 0];
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const i = at(2 * cx + dx, 2 * cy + dy);
        [r, g, b] = [r + rgb[i]!, g + rgb[i + 1]!, b + rgb[i + 2]!];
      }
      [r, g, b] = [(r + 2) >> 2, (g + 2) >> 2, (b + 2) >> 2];
      u[cy * chromaWidth + cx] = cbOf(r, g, b);
      v[cy * chromaWidth + cx] = crOf(r, g, b);
    }
  }
  return { width, height, lumaWidth, lumaHeight, y, u, v };
}
