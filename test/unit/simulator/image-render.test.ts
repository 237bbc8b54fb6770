import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodePng } from '../../../main/simulator/images/png.ts';
import { paintPicture } from '../../../main/simulator/images/pixels.ts';
import { renderImage, type RenderSpec } from '../../../main/simulator/images/render.ts';

const spec = (change: Partial<RenderSpec> = {}): RenderSpec => ({
  prompt: 'a lighthouse at dusk',
  seed: 42,
  index: 0,
  width: 64,
  height: 48,
  format: 'png',
  detail: '',
  watermark: false,
  source: null,
  mask: null,
  ...change,
});
const noSources = () => undefined;

/** Mean absolute difference per channel between two raw RGB pictures of one size. */
function meanDifference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}
const rawOf = (bytes: Buffer, width: number, height: number) =>
  sharp(bytes).resize(width, height, { fit: 'fill' }).removeAlpha().raw().toBuffer();

describe('renderImage', () => {
  it('is deterministic: same parameters, same bytes', async () => {
    const a = await renderImage(spec(), noSources);
    const b = await renderImage(spec(), noSources);
    expect(a.equals(b)).toBe(true);
  });

  it.each([{ seed: 43 }, { index: 1 }, { prompt: 'a lighthouse at dawn' }, { detail: '{"q":1}' }])(
    'changes the picture when %j changes',
    async (change) => {
      const a = await renderImage(spec(), noSources);
      const b = await renderImage(spec(change), noSources);
      expect(a.equals(b)).toBe(false);
      expect(meanDifference(await rawOf(a, 64, 48), await rawOf(b, 64, 48))).toBeGreaterThan(3);
    },
  );

  it.each([
    [64, 48, 'png'],
    [300, 200, 'png'],
    [1024, 576, 'png'],
    [64, 64, 'jpeg'],
    [1024, 1024, 'jpeg'],
    [200, 120, 'webp'],
  ] as const)('renders %ix%i %s that decodes to that size and format', async (w, h, format) => {
    const bytes = await renderImage(spec({ width: w, height: h, format }), noSources);
    const meta = await sharp(bytes).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([w, h, format]);
  });

  it('is a picture, not a flat fill: pixels vary', async () => {
    const raw = await rawOf(
      await renderImage(spec({ width: 256, height: 256 }), noSources),
      256,
      256,
    );
    const stats = await sharp(raw, { raw: { width: 256, height: 256, channels: 3 } }).stats();
    for (const channel of stats.channels) expect(channel.stdev).toBeGreaterThan(5);
  });

  it('stamps a lighter watermark in the bottom-right corner', async () => {
    const plain = await rawOf(
      await renderImage(spec({ width: 128, height: 128 }), noSources),
      128,
      128,
    );
    const marked = await rawOf(
      await renderImage(spec({ width: 128, height: 128, watermark: true }), noSources),
      128,
      128,
    );
    const at = (raw: Buffer, x: number, y: number) => raw[(y * 128 + x) * 3]!;
    expect(at(marked, 110, 118)).toBeGreaterThanOrEqual(at(plain, 110, 118));
    expect(meanDifference(marked, plain)).toBeGreaterThan(0);
    expect(at(marked, 10, 10)).toBe(at(plain, 10, 10));
  });

  it('edits are visible and derive from the input: its negative, tinted, where the mask is transparent; the rest a few levels brighter', async () => {
    const solid = (r: number, g: number, b: number) =>
      sharp({ create: { width: 80, height: 80, channels: 3, background: { r, g, b } } })
        .png()
        .toBuffer();
    const [red, blue] = [await solid(250, 20, 20), await solid(20, 20, 250)];
    // Mask: opaque (keep) on the left half, transparent (edit) on the right half.
    const maskRaw = Buffer.alloc(80 * 80 * 4);
    for (let y = 0; y < 80; y++)
      for (let x = 0; x < 80; x++) maskRaw[(y * 80 + x) * 4 + 3] = x < 40 ? 255 : 0;
    const mask = await sharp(maskRaw, { raw: { width: 80, height: 80, channels: 4 } })
      .png()
      .toBuffer();
    const sources = (digest: string) => ({ red, blue, mask })[digest];
    const mean = (raw: Buffer, channel: number) => {
      let sum = 0;
      for (let i = channel; i < raw.length; i += 3) sum += raw[i]!;
      return sum / (raw.length / 3);
    };

    // the negative of red is cyan, of blue yellow: the same prompt and seed on both
    const ofRed = await rawOf(
      await renderImage(spec({ width: 80, height: 80, source: 'red' }), sources),
      80,
      80,
    );
    const ofBlue = await rawOf(
      await renderImage(spec({ width: 80, height: 80, source: 'blue' }), sources),
      80,
      80,
    );
    expect(mean(ofRed, 0)).toBeLessThan(mean(ofBlue, 0) - 40);
    expect(mean(ofRed, 2)).toBeGreaterThan(mean(ofBlue, 2) + 40);

    const masked = await rawOf(
      await renderImage(spec({ width: 80, height: 80, source: 'red', mask: 'mask' }), sources),
      80,
      80,
    );
    expect([...masked.subarray((40 * 80 + 10) * 3, (40 * 80 + 10) * 3 + 3)]).toEqual([255, 26, 26]);
    expect(masked[(40 * 80 + 70) * 3 + 1]).toBeGreaterThan(120);
  });

  it('refuses to render an edit whose input is no longer held', async () => {
    await expect(renderImage(spec({ source: 'gone' }), noSources)).rejects.toThrow(/expired/);
  });
});

describe('encodePng', () => {
  it('writes a PNG that decodes to the same pixels', async () => {
    const raw = paintPicture(33, 17, 5);
    const { data, info } = await sharp(encodePng(raw, 33, 17))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([33, 17, 3]);
    expect(data.equals(raw)).toBe(true);
  });

  // The encoder's Huffman code is tuned for smooth pictures; any bytes must still round-trip.
  it.each([
    ['noise', 64, 64],
    ['flat', 128, 128],
    ['noise', 1, 1],
    // Rows longer than the encoder's Adler-32 chunk.
    ['noise', 2100, 2],
  ] as const)('is lossless for %s at %ix%i', async (kind, w, h) => {
    const raw = Buffer.alloc(w * h * 3, 77);
    if (kind === 'noise') for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
    const { data } = await sharp(encodePng(raw, w, h))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data.equals(raw)).toBe(true);
  });
});
