import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { createEmbedTransform } from '../../../main/core/library/embed-transform.ts';
import type { ImageMetadata } from '../../../main/core/library/metadata.ts';
import { pngChunk, readPngTextChunks } from '../../../main/core/library/png-chunks.ts';
import { readEmbeddedMetadata } from '../../../main/core/library/read-metadata.ts';
import { makeImage, sampleMetadata, type FixtureName } from '../../support/library-fixtures.ts';

async function embed(image: Buffer, metadata: ImageMetadata): Promise<Buffer> {
  const { transform } = createEmbedTransform({ metadata, expectedFormat: null });
  const out: Buffer[] = [];
  await pipeline(Readable.from([image]), transform, async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) out.push(chunk);
  });
  return Buffer.concat(out);
}

/** How many times `needle` occurs in `bytes`. */
function occurrences(bytes: Buffer, needle: string): number {
  const pattern = Buffer.from(needle, 'utf8');
  let count = 0;
  for (let at = bytes.indexOf(pattern); at !== -1; at = bytes.indexOf(pattern, at + 1)) count++;
  return count;
}

// Nothing XML or JSON escapes, so any full copy shows byte for byte.
const longPrompt = `${'a lighthouse at dusk, café 灯台 '.repeat(600)}the end of the prompt`;
const longNegative = `${'blurry, low quality, '.repeat(400)}the end of the negative`;
const metadata = sampleMetadata({ prompt: longPrompt, negativePrompt: longNegative });

describe('a long prompt is embedded once at full length', () => {
  it.each<FixtureName>(['png', 'jpeg', 'webp-lossy'])(
    '%s: one full copy of the prompt and of the negative prompt, and it reads back whole',
    async (name) => {
      const image = await makeImage(name);
      const output = await embed(image, metadata);
      expect(occurrences(output, longPrompt)).toBe(1);
      expect(occurrences(output, longNegative)).toBe(1);
      const promptBytes = Buffer.byteLength(longPrompt) + Buffer.byteLength(longNegative);
      // the rest of the metadata (the short copies, names, the XMP frame) is small
      expect(output.length - image.length).toBeLessThan(promptBytes + 4_000);
      expect(readEmbeddedMetadata(output).metadata).toEqual({ ...metadata, software: 'Atelier' });
    },
  );

  it('the XMP description (what photo tools show) is the start of the prompt, marked as cut', async () => {
    const output = await embed(await makeImage('png'), metadata);
    const [xmp] = readEmbeddedMetadata(output).xmp;
    const description = /<rdf:li xml:lang="x-default">([^<]*)<\/rdf:li>/.exec(xmp!)?.[1];
    expect(description?.endsWith('…')).toBe(true);
    expect(longPrompt.startsWith(description!.slice(0, -1))).toBe(true);
    expect(description!.length).toBeLessThan(300);
  });

  it('PNG: with the parameters chunk gone or changed, the start of the prompt is read, marked truncated', async () => {
    const output = await embed(await makeImage('png'), metadata);
    const withoutParameters = dropChunk(output, 'parameters');
    const read = readEmbeddedMetadata(withoutParameters).metadata!;
    expect(read.truncated).toBe(true);
    expect(read.prompt.length).toBeGreaterThan(100);
    expect(longPrompt.startsWith(read.prompt)).toBe(true);
    expect(read).not.toHaveProperty('textInParameters');
  });

  it('PNG: a short prompt is still written whole in the JSON copy too', async () => {
    const short = sampleMetadata();
    const output = await embed(await makeImage('png'), short);
    expect(occurrences(output, 'line three\\ttab')).toBe(1); // the JSON copy (escaped tab)
    expect(readEmbeddedMetadata(dropChunk(output, 'parameters')).metadata).toEqual({
      ...short,
      software: 'Atelier',
    });
  });
});

/** The PNG without its text chunk named `keyword`. */
function dropChunk(png: Buffer, keyword: string): Buffer {
  const parts: Buffer[] = [png.subarray(0, 8)];
  let offset = 8;
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    const data = png.subarray(offset + 8, offset + 8 + length);
    const isIt =
      type === 'iTXt' && data.toString('latin1', 0, keyword.length + 1) === `${keyword}\0`;
    if (!isIt) parts.push(pngChunk(type, data));
    offset = end;
  }
  const out = Buffer.concat(parts);
  expect(readPngTextChunks(out).map((t) => t.keyword)).not.toContain(keyword);
  return out;
}
