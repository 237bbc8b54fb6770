import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { a1111Parameters } from '../../../main/core/library/metadata.ts';
import {
  iTxtChunk,
  pngChunk,
  pngMetadataChunks,
  PNG_XMP_KEYWORD,
  readPngTextChunks,
  tExtChunk,
} from '../../../main/core/library/png-chunks.ts';
import { PNG_SIGNATURE } from '../../../main/core/library/image-format.ts';
import {
  buildXmpPacket,
  escapeXml,
  XMP_PACKET_START,
  xmpPacketAfterStart,
} from '../../../main/core/library/xmp.ts';
import { parseXmpMetadata } from '../../../main/core/library/read-metadata.ts';
import { sampleMetadata } from '../../support/library-fixtures.ts';

/** Every chunk of a chunk sequence, checking lengths and CRCs on the way. */
function splitChunks(bytes: Buffer): { type: string; data: Buffer }[] {
  const chunks: { type: string; data: Buffer }[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const end = offset + 8 + length;
    expect(bytes.readUInt32BE(end)).toBe(crc32(bytes.subarray(offset + 4, end)));
    chunks.push({
      type: bytes.toString('latin1', offset + 4, offset + 8),
      data: bytes.subarray(offset + 8, end),
    });
    offset = end + 4;
  }
  expect(offset).toBe(bytes.length);
  return chunks;
}

describe('escapeXml', () => {
  it('returns text that needs nothing unchanged', () => {
    for (const text of [
      '',
      'a lighthouse at dusk, study 17',
      'café 灯台 🎨',
      '2026-11-22T09:30:00.000Z',
    ]) {
      expect(escapeXml(text)).toBe(text);
    }
  });

  it('escapes markup and CR, drops what XML cannot carry, keeps surrogate pairs', () => {
    expect(escapeXml('a&b<c>"d"\r\n\'e\'')).toBe("a&amp;b&lt;c&gt;&quot;d&quot;&#13;\n'e'");
    expect(escapeXml('x\u0000\u0001\u0008\t\u000b\u000c\u000e\u001f\ufffe\uffffy')).toBe('x\ty');
    expect(escapeXml('\ud83c\udfa8 \ud83c lone \udfa8 <')).toBe('\ud83c\udfa8  lone  &lt;');
    // Controls are dropped before lone surrogates: the two halves then form a pair.
    expect(escapeXml('\ud83c\u0001\udfa8')).toBe('\ud83c\udfa8');
  });
});

describe('PNG metadata chunks', () => {
  const awkward = [
    sampleMetadata(),
    sampleMetadata({ prompt: 'a lighthouse at dusk, study 17', negativePrompt: null, seed: null }),
    sampleMetadata({
      prompt: '灯台 🎨 \ud83c lone & <b>\r\n\u0001',
      parameters: { n: { deep: ['é'] } },
    }),
    sampleMetadata({ prompt: '', batch: '\ufffe', requestId: null, parameters: undefined }),
  ];

  it('writes the parameters, Software and XMP chunks with valid CRCs', () => {
    for (const metadata of awkward) {
      const bytes = pngMetadataChunks(metadata);
      const chunks = splitChunks(bytes);
      expect(chunks.map((c) => c.type)).toEqual(['iTXt', 'tEXt', 'iTXt']);
      expect(chunks[0]?.data).toEqual(
        Buffer.from(`parameters\0\0\0\0\0${a1111Parameters(metadata)}`, 'utf8'),
      );
      expect(chunks[1]?.data).toEqual(Buffer.from('Software\0Atelier', 'latin1'));
      expect(chunks[2]?.data).toEqual(
        Buffer.from(`${PNG_XMP_KEYWORD}\0\0\0\0\0${buildXmpPacket(metadata)}`, 'utf8'),
      );
      const texts = readPngTextChunks(Buffer.concat([PNG_SIGNATURE, bytes]));
      expect(parseXmpMetadata(texts[2]?.text ?? '')?.batch).toBe(metadata.batch);
    }
  });

  it('builds single chunks exactly as pngChunk around the encoded data', () => {
    const text = 'prompt 🎨 \ud83c & é';
    expect(iTxtChunk('parameters', text)).toEqual(
      pngChunk('iTXt', Buffer.from(`parameters\0\0\0\0\0${text}`, 'utf8')),
    );
    expect(tExtChunk('Title', 'café')).toEqual(
      pngChunk('tEXt', Buffer.from('Title\0café', 'latin1')),
    );
  });

  it('splits the XMP packet only at its fixed start', () => {
    const metadata = sampleMetadata();
    expect(buildXmpPacket(metadata)).toBe(XMP_PACKET_START + xmpPacketAfterStart(metadata));
    expect(buildXmpPacket(metadata).startsWith('<?xpacket begin="\ufeff" id="')).toBe(true);
  });
});
