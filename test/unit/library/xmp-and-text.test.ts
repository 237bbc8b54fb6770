import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pngChunk, readPngTextChunks } from '../../../main/core/library/png-chunks.ts';
import { PNG_SIGNATURE } from '../../../main/core/library/image-format.ts';
import {
  buildXmpPacket,
  buildXmpPacketWithin,
  escapeXml,
  unescapeXml,
} from '../../../main/core/library/xmp.ts';
import { parseXmpMetadata } from '../../../main/core/library/read-metadata.ts';
import { sampleMetadata } from '../../support/library-fixtures.ts';

describe('XMP packets', () => {
  it('escapes and unescapes markup, quotes and carriage returns', () => {
    const text = 'a < b && c > "d" \'e\' \r\n end';
    const escaped = escapeXml(text);
    expect(escaped).not.toMatch(/[<>"\r]|&(?!amp;|lt;|gt;|quot;|#13;)/);
    expect(unescapeXml(escaped)).toBe(text);
    expect(unescapeXml('&#x1F3A8;&#65;&apos;')).toBe("🎨A'");
  });

  it('is well-formed: the prompt never escapes its element', () => {
    const packet = buildXmpPacket(sampleMetadata({ prompt: '</rdf:li><evil/>' }));
    expect(packet).not.toContain('<evil/>');
    expect(parseXmpMetadata(packet)?.prompt).toBe('</rdf:li><evil/>');
  });

  it('returns null for a packet without our metadata or with broken JSON', () => {
    expect(parseXmpMetadata('<x:xmpmeta/>')).toBeNull();
    const broken = buildXmpPacket(sampleMetadata()).replace(/(<atelier:metadata>)\{/, '$1[');
    expect(parseXmpMetadata(broken)).toBeNull();
    const wrongShape = buildXmpPacket(sampleMetadata()).replace(
      '&quot;index&quot;:2',
      '&quot;index&quot;:"2"',
    );
    expect(parseXmpMetadata(wrongShape)).toBeNull();
  });

  it('fits a packet in a byte budget by shortening the prompt, never splitting a character', () => {
    const prompt = '🎨'.repeat(30_000);
    const packet = buildXmpPacketWithin(sampleMetadata({ prompt }), 20_000);
    expect(packet.length).toBeLessThanOrEqual(20_000);
    expect(packet.length).toBeGreaterThan(19_000);
    const read = parseXmpMetadata(packet.toString('utf8'))!;
    expect(read.truncated).toBe(true);
    expect(read.prompt).toMatch(/^(🎨)+$/u);
    const small = buildXmpPacketWithin(sampleMetadata(), 20_000);
    expect(parseXmpMetadata(small.toString('utf8'))?.truncated).toBeUndefined();
  });
});

describe('PNG text chunks', () => {
  it('reads tEXt, compressed zTXt and compressed iTXt written by other tools', () => {
    const png = Buffer.concat([
      PNG_SIGNATURE,
      pngChunk('IHDR', Buffer.alloc(13)),
      pngChunk('tEXt', Buffer.from('Title\0caf\xe9', 'latin1')),
      pngChunk(
        'zTXt',
        Buffer.concat([Buffer.from('Comment\0\0', 'latin1'), deflateSync('zipped')]),
      ),
      pngChunk(
        'iTXt',
        Buffer.concat([
          Buffer.from('parameters\0\x01\0fr\0Paramètres\0', 'utf8'),
          deflateSync(Buffer.from('prompt 🎨\nSeed: 1', 'utf8')),
        ]),
      ),
      pngChunk('IEND', Buffer.alloc(0)),
    ]);
    expect(readPngTextChunks(png)).toEqual([
      { type: 'tEXt', keyword: 'Title', text: 'café' },
      { type: 'zTXt', keyword: 'Comment', text: 'zipped' },
      {
        type: 'iTXt',
        keyword: 'parameters',
        text: 'prompt 🎨\nSeed: 1',
        languageTag: 'fr',
        translatedKeyword: 'Paramètres',
      },
    ]);
  });

  it('stops at a chunk that runs past the end instead of throwing', () => {
    const png = Buffer.concat([
      PNG_SIGNATURE,
      pngChunk('tEXt', Buffer.from('A\0ok', 'latin1')),
      pngChunk('tEXt', Buffer.from('B\0cut', 'latin1')).subarray(0, 10),
    ]);
    expect(readPngTextChunks(png)).toEqual([{ type: 'tEXt', keyword: 'A', text: 'ok' }]);
  });
});
