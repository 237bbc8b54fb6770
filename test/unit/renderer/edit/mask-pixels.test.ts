import { describe, expect, it } from 'vitest';
import {
  alphaOf,
  hardMask,
  paintFromMaskFile,
  paintOf,
  PAINT_RGB,
} from '../../../../renderer/src/screens/edit/mask-pixels.ts';

const rgba = (...pixels: number[][]) => new Uint8ClampedArray(pixels.flat());

describe('the mask as sent', () => {
  it('is black, transparent where painted from half up, opaque elsewhere: no soft pixel', () => {
    const layer = rgba([255, 48, 96, 255], [255, 48, 96, 128], [255, 48, 96, 127], [0, 0, 0, 0]);
    const out = new Uint8ClampedArray(layer.length);
    expect(hardMask(layer, out)).toBe(2);
    expect([...out]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0, 255]);
  });
});

describe('paint and alpha', () => {
  it('reads the alpha of paint and gives paint of an alpha back, in the paint colour', () => {
    const alpha = new Uint8Array([0, 200, 255]);
    const paint = paintOf(alpha);
    expect([...paint.slice(0, 4)]).toEqual([0, 0, 0, 0]);
    expect([...paint.slice(4, 8)]).toEqual([...PAINT_RGB, 200]);
    expect([...alphaOf(paint)]).toEqual([0, 200, 255]);
  });
});

describe('a mask file read back as paint', () => {
  it('paints where the file is transparent, as the gateway reads a mask', () => {
    const file = rgba([0, 0, 0, 0], [0, 0, 0, 100], [0, 0, 0, 128], [255, 255, 255, 255]);
    const read = paintFromMaskFile(file);
    expect(read.convention).toBe('transparency');
    expect([...read.alpha]).toEqual([255, 255, 0, 0]);
    expect(read.painted).toBe(2);
  });

  it('reads a file with no transparency by its light parts (a black and white mask)', () => {
    const file = rgba(
      [255, 255, 255, 255],
      [0, 0, 0, 255],
      [200, 200, 200, 255],
      [90, 90, 90, 255],
    );
    const read = paintFromMaskFile(file);
    expect(read.convention).toBe('brightness');
    expect([...read.alpha]).toEqual([255, 0, 255, 0]);
  });
});
