import { crc32, inflateSync } from 'node:zlib';
import { a1111Parameters, SOFTWARE_NAME, type ImageMetadata } from './metadata.ts';
import { PNG_SIGNATURE } from './image-format.ts';
import { buildXmpPacket } from './xmp.ts';
import type { EmbedPlan, NeedMoreBytes } from './embed-plan.ts';
import { LibraryWriteError } from './write-error.ts';

/** The PNG keyword other tools use for an XMP packet in an iTXt chunk. */
export const PNG_XMP_KEYWORD = 'XML:com.adobe.xmp';

/** Signature plus the IHDR chunk (4 length + 4 type + 13 data + 4 CRC). */
const HEAD_BYTES = 8 + 25;
const IEND_CHUNK = Buffer.from('0000000049454e44ae426082', 'hex');

export function pngChunk(type: string, data: Buffer): Buffer {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return chunk;
}

/** An uncompressed iTXt chunk: UTF-8 text under a Latin-1 keyword. */
export function iTxtChunk(keyword: string, text: string): Buffer {
  return pngChunk(
    'iTXt',
    Buffer.concat([
      Buffer.from(keyword, 'latin1'),
      Buffer.from([0, 0, 0]), // keyword end, compression flag, compression method
      Buffer.from([0, 0]), // empty language tag, empty translated keyword
      Buffer.from(text, 'utf8'),
    ]),
  );
}

export function tExtChunk(keyword: string, text: string): Buffer {
  return pngChunk('tEXt', Buffer.from(`${keyword}\0${text}`, 'latin1'));
}

/** The chunks Atelier inserts after IHDR. */
export function pngMetadataChunks(metadata: ImageMetadata): Buffer {
  return Buffer.concat([
    iTxtChunk('parameters', a1111Parameters(metadata)),
    tExtChunk('Software', SOFTWARE_NAME),
    iTxtChunk(PNG_XMP_KEYWORD, buildXmpPacket(metadata)),
  ]);
}

/** Inserts the metadata chunks right after IHDR; needs the first 33 bytes. */
export function planPngEmbed(prefix: Buffer, metadata: ImageMetadata): EmbedPlan | NeedMoreBytes {
  if (prefix.length < HEAD_BYTES) return { needBytes: HEAD_BYTES };
  if (!prefix.subarray(0, 8).equals(PNG_SIGNATURE)) {
    throw new LibraryWriteError('corrupt', 'The PNG does not start with the PNG signature.');
  }
  if (prefix.readUInt32BE(8) !== 13 || prefix.toString('latin1', 12, 16) !== 'IHDR') {
    throw new LibraryWriteError('corrupt', 'The PNG does not start with an IHDR chunk.');
  }
  return {
    consumed: HEAD_BYTES,
    head: Buffer.concat([prefix.subarray(0, HEAD_BYTES), pngMetadataChunks(metadata)]),
    trailer: Buffer.alloc(0),
    width: prefix.readUInt32BE(16),
    height: prefix.readUInt32BE(20),
    isComplete: (tail) => tail.length >= 12 && tail.subarray(tail.length - 12).equals(IEND_CHUNK),
  };
}

export interface PngTextEntry {
  type: 'tEXt' | 'zTXt' | 'iTXt';
  keyword: string;
  text: string;
  languageTag?: string;
  translatedKeyword?: string;
}

/** Every tEXt, zTXt and iTXt chunk of a PNG, in file order. Stops at the first broken chunk. */
export function readPngTextChunks(png: Buffer): PngTextEntry[] {
  const entries: PngTextEntry[] = [];
  if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) return entries;
  let offset = 8;
  while (offset + 12 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > png.length) break;
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'tEXt' || type === 'zTXt' || type === 'iTXt') {
      const entry = parseTextChunk(type, data);
      if (entry) entries.push(entry);
    }
    if (type === 'IEND') break;
    offset = end;
  }
  return entries;
}

function parseTextChunk(type: PngTextEntry['type'], data: Buffer): PngTextEntry | null {
  const keywordEnd = data.indexOf(0);
  if (keywordEnd < 1) return null;
  const keyword = data.toString('latin1', 0, keywordEnd);
  try {
    if (type === 'tEXt') return { type, keyword, text: data.toString('latin1', keywordEnd + 1) };
    if (type === 'zTXt') {
      const text = inflateSync(data.subarray(keywordEnd + 2)).toString('latin1');
      return { type, keyword, text };
    }
    const compressed = data[keywordEnd + 1] === 1;
    const languageEnd = data.indexOf(0, keywordEnd + 3);
    const translatedEnd = languageEnd < 0 ? -1 : data.indexOf(0, languageEnd + 1);
    if (translatedEnd < 0) return null;
    const raw = data.subarray(translatedEnd + 1);
    return {
      type,
      keyword,
      text: (compressed ? inflateSync(raw) : raw).toString('utf8'),
      languageTag: data.toString('latin1', keywordEnd + 3, languageEnd),
      translatedKeyword: data.toString('utf8', languageEnd + 1, translatedEnd),
    };
  } catch {
    return null; // a damaged compressed chunk: skip it, keep the others
  }
}
