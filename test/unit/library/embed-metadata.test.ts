import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createEmbedTransform } from '../../../main/core/library/embed-transform.ts';
import type { ImageFormat } from '../../../main/core/library/image-format.ts';
import { readJpegXmpPackets } from '../../../main/core/library/jpeg-segments.ts';
import type { ImageMetadata } from '../../../main/core/library/metadata.ts';
import { readPngTextChunks } from '../../../main/core/library/png-chunks.ts';
import { readEmbeddedMetadata } from '../../../main/core/library/read-metadata.ts';
import { readWebpXmpPackets } from '../../../main/core/library/webp-chunks.ts';
import { LibraryWriteError } from '../../../main/core/library/write-error.ts';
import { FIXTURES, makeImage, rawPixels, sampleMetadata } from '../../support/library-fixtures.ts';

async function embed(
  image: Buffer,
  metadata: ImageMetadata,
  options: { chunkSize?: number; format?: ImageFormat | null; expectedSourceBytes?: number } = {},
) {
  const { transform, stats } = createEmbedTransform({
    metadata,
    expectedFormat: options.format === undefined ? null : options.format,
    expectedSourceBytes: options.expectedSourceBytes,
  });
  const size = options.chunkSize ?? image.length;
  const chunks: Buffer[] = [];
  for (let i = 0; i < image.length; i += size) chunks.push(image.subarray(i, i + size));
  const out: Buffer[] = [];
  await pipeline(Readable.from(chunks), transform, async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) out.push(chunk);
  });
  return { output: Buffer.concat(out), stats };
}

async function embedError(image: Buffer, options: Parameters<typeof embed>[2] = {}) {
  const error = await embed(image, sampleMetadata(), options).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LibraryWriteError);
  return error as LibraryWriteError;
}

const expectedRoundTrip = (metadata: ImageMetadata) => ({ ...metadata, software: 'Atelier' });

describe('embedding metadata while streaming', () => {
  for (const { name, format } of FIXTURES) {
    it(`${name}: reads back the same metadata, with the same pixels, in any chunking`, async () => {
      const image = await makeImage(name);
      const metadata = sampleMetadata();
      for (const chunkSize of [1, 7, 4096]) {
        const { output, stats } = await embed(image, metadata, { chunkSize, format });
        expect(stats).toEqual({ format, sourceBytes: image.length, width: 48, height: 32 });
        const read = readEmbeddedMetadata(output);
        expect(read.format).toBe(format);
        expect(read.metadata).toEqual(expectedRoundTrip(metadata));
        const before = await rawPixels(image);
        const after = await rawPixels(output);
        expect(after.width).toBe(48);
        expect(after.height).toBe(32);
        expect(after.channels).toBe(before.channels);
        expect(after.data.equals(before.data)).toBe(true);
        // The decoder other tools use sees our XMP too.
        const info = await sharp(output).metadata();
        expect(info.xmp?.toString('utf8')).toContain('atelier:metadata');
      }
    });
  }

  it('round-trips a 100 000-character prompt in PNG and WebP untouched', async () => {
    const prompt = 'ünïcødé 🎨 & <long> "prompt"\n'.repeat(3600).slice(0, 100_000);
    const metadata = sampleMetadata({ prompt });
    for (const name of ['png', 'webp-lossless'] as const) {
      const { output } = await embed(await makeImage(name), metadata);
      expect(readEmbeddedMetadata(output).metadata).toEqual(expectedRoundTrip(metadata));
    }
  });

  it('shortens a prompt too long for a JPEG XMP segment, and says so', async () => {
    const prompt = '🎨<&>'.repeat(40_000);
    const { output } = await embed(await makeImage('jpeg'), sampleMetadata({ prompt }));
    const read = readEmbeddedMetadata(output).metadata!;
    expect(read.truncated).toBe(true);
    expect(read.prompt.length).toBeGreaterThan(1000);
    expect(prompt.startsWith(read.prompt)).toBe(true);
    expect(read.parameters).toBeUndefined();
    expect((await sharp(output).metadata()).width).toBe(48);
  });

  it('keeps characters XML cannot carry in the JSON copy (control characters, lone surrogates)', async () => {
    const prompt = 'bell \u0007 nul \u0000 lone \ud800 end \uffff';
    const { output } = await embed(await makeImage('webp-lossy'), sampleMetadata({ prompt }));
    expect(readEmbeddedMetadata(output).metadata?.prompt).toBe(prompt);
  });

  it('PNG: puts A1111 parameters, Software and XMP right after IHDR', async () => {
    const { output } = await embed(await makeImage('png'), sampleMetadata());
    expect(output.toString('latin1', 12, 16)).toBe('IHDR');
    expect(output.toString('latin1', 37, 41)).toBe('iTXt');
    const texts = readPngTextChunks(output);
    expect(texts.map((t) => t.keyword)).toEqual(['parameters', 'Software', 'XML:com.adobe.xmp']);
    expect(texts[0]!.text).toBe(
      `${sampleMetadata().prompt}\nNegative prompt: ${sampleMetadata().negativePrompt}\n` +
        'Seed: 424242, Size: 48x32, Model: flux-pro/1.1, quality: high, ' +
        'extra: {"guidance_scale":3.5,"style":"a \\"b\\" <c>"}, Software: Atelier',
    );
    expect(texts[1]).toEqual({ type: 'tEXt', keyword: 'Software', text: 'Atelier' });
  });

  it('JPEG: inserts XMP after JFIF and Exif segments, which must come first', async () => {
    const plain = await makeImage('jpeg');
    const app0 = Buffer.from('ffe000104a46494600010100000100010000', 'hex'); // JFIF APP0
    const withJfif = Buffer.concat([plain.subarray(0, 2), app0, plain.subarray(2)]);
    const withExif = await sharp(plain)
      .withExif({ IFD0: { Artist: 'tester' } })
      .toBuffer();
    const withBoth = Buffer.concat([plain.subarray(0, 2), app0, withExif.subarray(2)]);
    const cases = [
      { jpeg: plain, before: [] },
      { jpeg: withJfif, before: ['jfif'] },
      { jpeg: withExif, before: ['exif'] },
      { jpeg: withBoth, before: ['jfif', 'exif'] },
    ];
    for (const { jpeg, before } of cases) {
      const { output } = await embed(jpeg, sampleMetadata(), { chunkSize: 3 });
      const markers = segmentMarkers(output);
      const xmpAt = markers.findIndex((m) => m.xmp);
      const names = markers
        .slice(0, xmpAt)
        .map((m) => (m.exif ? 'exif' : m.marker === 0xe0 ? 'jfif' : '?'));
      expect(names).toEqual(before);
      expect(readJpegXmpPackets(output)).toHaveLength(1);
      expect((await rawPixels(output)).data.equals((await rawPixels(jpeg)).data)).toBe(true);
    }
  });

  it('JPEG: reads the frame size of progressive files and past a large ICC profile', async () => {
    const base = sharp(await makeImage('png', 300, 17));
    const variants = [
      await base.clone().jpeg({ progressive: true }).toBuffer(),
      await base.clone().withIccProfile('p3').jpeg().toBuffer(),
    ];
    for (const jpeg of variants) {
      const { output, stats } = await embed(jpeg, sampleMetadata(), { chunkSize: 100 });
      expect(stats).toMatchObject({ width: 300, height: 17 });
      expect(readEmbeddedMetadata(output).metadata?.index).toBe(2);
    }
  });

  it('WebP: a simple lossy file becomes VP8X with the XMP flag and the right canvas', async () => {
    const { output } = await embed(await makeImage('webp-lossy', 300, 7), sampleMetadata());
    expect(output.toString('latin1', 12, 16)).toBe('VP8X');
    expect(output[20]).toBe(0x04); // XMP flag only
    expect(output.readUIntLE(24, 3) + 1).toBe(300);
    expect(output.readUIntLE(27, 3) + 1).toBe(7);
    expect(output.readUInt32LE(4)).toBe(output.length - 8);
    expect(readWebpXmpPackets(output)).toHaveLength(1);
  });

  it('WebP: a lossless file with alpha gets the alpha flag; an extended one keeps its flags', async () => {
    const lossless = (await embed(await makeImage('webp-lossless'), sampleMetadata())).output;
    expect(lossless[20]).toBe(0x04 | 0x10);
    const source = await makeImage('webp-alpha');
    expect(source.toString('latin1', 12, 16)).toBe('VP8X');
    const extended = (await embed(source, sampleMetadata())).output;
    expect(extended[20]).toBe(source[20]! | 0x04);
    expect(extended.readUInt32LE(4)).toBe(extended.length - 8);
    expect((await rawPixels(extended)).channels).toBe(4);
  });
});

describe('rejecting what is not a complete image', () => {
  it('refuses a body of another format than expected, naming the one found', async () => {
    const error = await embedError(await makeImage('jpeg'), { format: 'png' });
    expect(error.kind).toBe('wrong-format');
    expect(error.detectedFormat).toBe('jpeg');
  });

  it('refuses an error page, short or long, served instead of an image', async () => {
    for (const body of ['<html><body>502 Bad Gateway</body></html>', 'Not found']) {
      const error = await embedError(Buffer.from(body), { format: 'png' });
      expect(error.kind).toBe('wrong-format');
      expect(error.message).toContain(body.slice(0, 8));
    }
  });

  it('fails an empty body and a body cut inside the header as truncated', async () => {
    expect((await embedError(Buffer.alloc(0))).kind).toBe('truncated');
    const png = await makeImage('png');
    expect((await embedError(png.subarray(0, 5))).kind).toBe('truncated');
    expect((await embedError(png.subarray(0, 20))).kind).toBe('truncated');
  });

  for (const { name } of FIXTURES) {
    it(`${name}: fails a body cut anywhere in the image data as truncated`, async () => {
      const image = await makeImage(name);
      for (const keep of [0.5, 0.9, (image.length - 1) / image.length]) {
        const error = await embedError(image.subarray(0, Math.floor(image.length * keep)));
        expect(error.kind).toBe('truncated');
      }
    });
  }

  it('fails a body shorter than its announced length, even if it looks complete', async () => {
    const png = await makeImage('png');
    const error = await embedError(png, { expectedSourceBytes: png.length + 10 });
    expect(error.kind).toBe('truncated');
    expect(error.message).toContain(`${png.length} of ${png.length + 10} bytes`);
  });

  it('fails a WebP with bytes after its RIFF end as corrupt', async () => {
    const webp = Buffer.concat([await makeImage('webp-lossy'), Buffer.from('junk')]);
    expect((await embedError(webp)).kind).toBe('corrupt');
  });

  it('fails a JPEG whose header runs past 512 KB as corrupt, without waiting for the rest', async () => {
    const app0 = Buffer.concat([Buffer.from('ffe0ffff', 'hex'), Buffer.alloc(0xfffd)]);
    const jpeg = Buffer.concat([Buffer.from('ffd8', 'hex'), ...Array(9).fill(app0)]);
    const error = await embedError(jpeg, { chunkSize: 1000 });
    expect(error.kind).toBe('corrupt');
    expect(error.message).toContain('implausibly long');
  });

  it('fails a JPEG whose scan starts before any frame header as corrupt', async () => {
    const jpeg = Buffer.from('ffd8ffda000c03010002110311003f00ffd9', 'hex');
    expect((await embedError(jpeg)).kind).toBe('corrupt');
  });

  it('fails a PNG whose first chunk is not IHDR as corrupt', async () => {
    const png = Buffer.from(await makeImage('png'));
    png.write('XXXX', 12, 'latin1');
    expect((await embedError(png)).kind).toBe('corrupt');
  });
});

function segmentMarkers(jpeg: Buffer) {
  const markers: { marker: number; exif: boolean; xmp: boolean }[] = [];
  let offset = 2;
  while (jpeg[offset] === 0xff && jpeg[offset + 1] !== 0xda) {
    const marker = jpeg[offset + 1]!;
    const payload = jpeg.subarray(offset + 4, offset + 2 + jpeg.readUInt16BE(offset + 2));
    markers.push({
      marker,
      exif: marker === 0xe1 && payload.toString('latin1', 0, 4) === 'Exif',
      xmp: marker === 0xe1 && payload.toString('latin1').startsWith('http://ns.adobe.com/xap'),
    });
    offset += 2 + jpeg.readUInt16BE(offset + 2);
  }
  return markers;
}
