import { describe, expect, it } from 'vitest';
import { rgbToYuv420 } from '../../../main/simulator/video/yuv.ts';

/** A picture of one colour. */
const solid = (width: number, height: number, rgb: [number, number, number]) =>
  Buffer.from(Array.from({ length: width * height }, () => rgb).flat());

describe('rgbToYuv420', () => {
  it('converts to BT.601 limited range: black 16, white 235, neutral chroma 128', () => {
    const black = rgbToYuv420(solid(16, 16, [0, 0, 0]), 16, 16);
    const white = rgbToYuv420(solid(16, 16, [255, 255, 255]), 16, 16);
    expect([black.y[0], black.u[0], black.v[0]]).toEqual([16, 128, 128]);
    expect([white.y[0], white.u[0], white.v[0]]).toEqual([235, 128, 128]);
  });

  it('gives the primaries their BT.601 values (Y, Cb, Cr within one step)', () => {
    const expected: Array<[[number, number, number], [number, number, number]]> = [
      [
        [255, 0, 0],
        [81, 90, 240],
      ],
      [
        [0, 255, 0],
        [145, 54, 34],
      ],
      [
        [0, 0, 255],
        [41, 240, 110],
      ],
    ];
    for (const [rgb, yuv] of expected) {
      const p = rgbToYuv420(solid(2, 2, rgb), 2, 2);
      const got = [p.y[0]!, p.u[0]!, p.v[0]!];
      got.forEach((value, i) => expect(Math.abs(value - yuv[i]!)).toBeLessThanOrEqual(1));
    }
  });

  it('pads to whole macroblocks by repeating the last column and row', () => {
    // 18×2: left 16 columns black, last two white; pads to 32×16.
    const rgb = Buffer.alloc(18 * 2 * 3);
    for (const y of [0, 1])
      for (const x of [16, 17]) rgb.fill(255, (y * 18 + x) * 3, (y * 18 + x) * 3 + 3);
    const p = rgbToYuv420(rgb, 18, 2);
    expect(p).toMatchObject({ width: 18, height: 2, lumaWidth: 32, lumaHeight: 16 });
    expect(p.y).toHaveLength(32 * 16);
    expect(p.u).toHaveLength(16 * 8);
    expect(p.y[15]).toBe(16);
    expect(p.y[16]).toBe(235);
    expect(p.y[31]).toBe(235); // padding repeats column 17
    expect(p.y[15 * 32 + 31]).toBe(235); // and row 1
    expect(p.y[15 * 32]).toBe(16);
  });

  it('averages each 2×2 block into one chroma sample', () => {
    // Columns alternate red and blue: every chroma sample is their mean, purple.
    const rgb = Buffer.from(
      Array.from({ length: 16 * 16 }, (_, i) => (i % 2 === 0 ? [255, 0, 0] : [0, 0, 255])).flat(),
    );
    const purple = rgbToYuv420(solid(16, 16, [128, 0, 128]), 16, 16);
    const p = rgbToYuv420(rgb, 16, 16);
    expect(new Set(p.u)).toEqual(new Set([purple.u[0]]));
    expect(new Set(p.v)).toEqual(new Set([purple.v[0]]));
    expect(p.y[0]).not.toBe(p.y[1]); // luma keeps full resolution
  });

  it('refuses a buffer of the wrong length', () => {
    expect(() => rgbToYuv420(Buffer.alloc(10), 2, 2)).toThrow(/Expected 2×2×3 RGB bytes; got 10/);
  });
});
