import { crc32, inflateSync } from 'node:zlib';
import {
  a1111Parameters,
  cutAt,
  PROMPT_PREVIEW_CHARS,
  SOFTWARE_NAME,
  type EmbeddedJson,
  type ImageMetadata,
} from './metadata.ts';
import { PNG_SIGNATURE } from './image-format.ts';
import { XMP_PACKET_START, xmpPacketAfterStart } from './xmp.ts';
import type { EmbedPlan, NeedMoreBytes } from './embed-plan.ts';
import { LibraryWriteError } from './write-error.ts';

/** The PNG keyword other tools use for an XMP packet in an iTXt chunk. */
export const PNG_XMP_KEYWORD = 'XML:com.adobe.xmp';

/** Signature plus the IHDR chunk (4 length + 4 type + 13 data + 4 CRC). */
const HEAD_BYTES = 8 + 25;
const IEND_CHUNK = Buffer.from('0000000049454e44ae426082', 'hex');

export function pngChunk(type: string, data: Buffer): Buffer {
  const chunk = Buffer.alloc(12 + data.length);
  data.copy(chunk, 8);
  finishChunk(chunk, 0, type, data.length);
  return chunk;
}

/**
 * Writes a chunk's length, type and CRC around the `dataLength` data bytes already at
 * `offset + 8` of `out`; returns the offset just past the chunk.
 */
function finishChunk(out: Buffer, offset: number, type: string, dataLength: number): number {
  const end = offset + 8 + dataLength;
  out.writeUInt32BE(dataLength, offset);
  out.write(type, offset + 4, 'latin1');
  out.writeUInt32BE(crc32(out.subarray(offset + 4, end)), end);
  return end + 4;
}

/**
 * A tEXt chunk holds Latin-1 text after "keyword NUL"; an uncompressed iTXt chunk holds UTF-8
 * text after "keyword NUL, compression flag 0, method 0, empty language tag NUL, empty
 * translated keyword NUL". Keywords are Latin-1 (one byte per character).
 */
type TextChunkType = 'tEXt' | 'iTXt';

const NO_BYTES = Buffer.alloc(0);

/**
 * The size of a whole text chunk whose text is `encodedStart` (already encoded) then `text`.
 * Buffer.byteLength counts a lone surrogate as the 3 bytes of U+FFFD, as Buffer#write writes it.
 */
function textChunkBytes(
  type: TextChunkType,
  keyword: string,
  text: string,
  encodedStart: Buffer = NO_BYTES,
): number {
  const textBytes = type === 'iTXt' ? Buffer.byteLength(text, 'utf8') : text.length;
  return 12 + keyword.length + (type === 'iTXt' ? 5 : 1) + encodedStart.length + textBytes;
}

/** Writes a whole text chunk at `offset` (sized by textChunkBytes); returns the offset after it. */
function writeTextChunk(
  out: Buffer,
  offset: number,
  type: TextChunkType,
  keyword: string,
  text: string,
  encodedStart: Buffer = NO_BYTES,
): number {
  const dataStart = offset + 8;
  let at = dataStart + out.write(keyword, dataStart, 'latin1');
  // The keyword's NUL, then for iTXt the compression flag and method and two empty fields.
  const zeros = type === 'iTXt' ? 5 : 1;
  out.fill(0, at, at + zeros);
  at += zeros;
  at += encodedStart.copy(out, at);
  at += out.write(text, at, type === 'iTXt' ? 'utf8' : 'latin1');
  return finishChunk(out, offset, type, at - dataStart);
}

function textChunk(type: TextChunkType, keyword: string, text: string): Buffer {
  const chunk = Buffer.alloc(textChunkBytes(type, keyword, text));
  writeTextChunk(chunk, 0, type, keyword, text);
  return chunk;
}

/** An uncompressed iTXt chunk: UTF-8 text under a Latin-1 keyword. */
export function iTxtChunk(keyword: string, text: string): Buffer {
  return textChunk('iTXt', keyword, text);
}

export function tExtChunk(keyword: string, text: string): Buffer {
  return textChunk('tEXt', keyword, text);
}

/** The chunks that do not depend on the metadata, encoded once. */
const SOFTWARE_CHUNK = tExtChunk('Software', SOFTWARE_NAME);
const XMP_PACKET_START_BYTES = Buffer.from(XMP_PACKET_START, 'utf8');

/** The chunks Atelier inserts after IHDR. */
export function pngMetadataChunks(metadata: ImageMetadata): Buffer {
  return metadataChunksAfter(NO_BYTES, metadata);
}

/**
 * `lead` followed by the metadata chunks, written into one buffer allocated once: building each
 * chunk, concatenating them, then prepending IHDR cost several allocations and copies per image.
 */
function metadataChunksAfter(lead: Buffer, metadata: ImageMetadata): Buffer {
  const parameters = a1111Parameters(metadata);
  const xmp = xmpPacketAfterStart(metadata, jsonBesideParameters(metadata));
  const size =
    lead.length +
    textChunkBytes('iTXt', 'parameters', parameters) +
    SOFTWARE_CHUNK.length +
    textChunkBytes('iTXt', PNG_XMP_KEYWORD, xmp, XMP_PACKET_START_BYTES);
  // Not zero-filled (neither is Buffer.concat's result): the check below proves every byte
  // has been written.
  const out = Buffer.allocUnsafe(size);
  let offset = lead.copy(out, 0);
  offset = writeTextChunk(out, offset, 'iTXt', 'parameters', parameters);
  offset += SOFTWARE_CHUNK.copy(out, offset);
  offset = writeTextChunk(out, offset, 'iTXt', PNG_XMP_KEYWORD, xmp, XMP_PACKET_START_BYTES);
  if (offset !== size) throw new Error(`PNG metadata chunks: wrote ${offset} of ${size} bytes.`);
  return out;
}

/**
 * The XMP JSON copy of a PNG: a long prompt or negative prompt is already whole in the
 * parameters chunk, so the copy holds its start and where to find the rest. Text that UTF-8
 * cannot carry exactly (a lone surrogate) stays whole in the JSON, which escapes it.
 */
export function jsonBesideParameters(metadata: ImageMetadata): EmbeddedJson {
  const { prompt } = metadata;
  const negative = metadata.negativePrompt;
  const long = (text: string) => text.length > PROMPT_PREVIEW_CHARS && text.isWellFormed();
  const longPrompt = long(prompt);
  const longNegative = Boolean(negative) && long(negative!) && prompt.isWellFormed();
  if (!longPrompt && !longNegative) return metadata;
  const json: EmbeddedJson = {
    ...metadata,
    prompt: longPrompt ? cutAt(prompt, PROMPT_PREVIEW_CHARS) : prompt,
    textInParameters: { prompt: prompt.length },
  };
  if (longNegative) {
    json.negativePrompt = cutAt(negative!, PROMPT_PREVIEW_CHARS);
    json.textInParameters!.negativePrompt = negative!.length;
  }
  return json;
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
    head: metadataChunksAfter(prefix.subarray(0, HEAD_BYTES), metadata),
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
