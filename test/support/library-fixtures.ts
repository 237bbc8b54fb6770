import sharp from 'sharp';
import type { ImageMetadata } from '../../main/core/library/metadata.ts';

/** Deterministic noise, so images do not compress to nothing and pixel checks mean something. */
export function noisePixels(width: number, height: number, channels: 3 | 4, seed = 1): Buffer {
  const pixels = Buffer.alloc(width * height * channels);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < pixels.length; i += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    pixels[i] = state & 0xff;
  }
  return pixels;
}

function noise(width: number, height: number, channels: 3 | 4) {
  return sharp(noisePixels(width, height, channels), { raw: { width, height, channels } });
}

export type FixtureName = 'png' | 'jpeg' | 'webp-lossy' | 'webp-lossless' | 'webp-alpha';

/** Real images made by sharp: PNG, JPEG, simple lossy (VP8) and lossless (VP8L) WebP, VP8X. */
export async function makeImage(name: FixtureName, width = 48, height = 32): Promise<Buffer> {
  switch (name) {
    case 'png':
      return noise(width, height, 3).png().toBuffer();
    case 'jpeg':
      return noise(width, height, 3).jpeg({ quality: 80 }).toBuffer();
    case 'webp-lossy':
      return noise(width, height, 3).webp({ quality: 80 }).toBuffer();
    case 'webp-lossless':
      return noise(width, height, 4).webp({ lossless: true }).toBuffer();
    case 'webp-alpha':
      return noise(width, height, 4).webp({ quality: 80 }).toBuffer(); // VP8X + ALPH + VP8
  }
}

export const FIXTURES: readonly { name: FixtureName; format: 'png' | 'jpeg' | 'webp' }[] = [
  { name: 'png', format: 'png' },
  { name: 'jpeg', format: 'jpeg' },
  { name: 'webp-lossy', format: 'webp' },
  { name: 'webp-lossless', format: 'webp' },
  { name: 'webp-alpha', format: 'webp' },
];

/** Decoded pixels, to prove embedding changed no pixel. */
export async function rawPixels(image: Buffer | string) {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

export const AWKWARD_PROMPT =
  'A "quoted" café <tag> & ampersand, \'single\', emoji 🎨👩‍🎨, 中文, ' +
  'line one\nline two\r\nline three\ttab, ]]> --> <!-- &amp; \\ backslash';

export function sampleMetadata(overrides: Partial<ImageMetadata> = {}): ImageMetadata {
  return {
    prompt: AWKWARD_PROMPT,
    negativePrompt: 'blurry, "low" <quality> & noise\nsecond line',
    model: 'flux-pro/1.1',
    size: '48x32',
    seed: 424242,
    index: 2,
    batch: 'Batch «été» #1',
    requestId: 'req_01HXYZ',
    parameters: { quality: 'high', extra: { guidance_scale: 3.5, style: 'a "b" <c>' } },
    createdAt: '2026-11-22T09:30:00.000Z',
    ...overrides,
  };
}
