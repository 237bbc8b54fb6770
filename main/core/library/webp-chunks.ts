import type { ImageMetadata } from './metadata.ts';
import { buildXmpPacket } from './xmp.ts';
import type { EmbedPlan, NeedMoreBytes } from './embed-plan.ts';
import { LibraryWriteError } from './write-error.ts';

const RIFF_HEADER_BYTES = 12;
const CHUNK_HEADER_BYTES = 8;
const VP8X_PAYLOAD_BYTES = 10;
const VP8X_FLAG_XMP = 0x04;
const VP8X_FLAG_ALPHA = 0x10;

export function riffChunk(fourCc: string, data: Buffer): Buffer {
  const padding = data.length % 2; // RIFF chunks are padded to an even size
  const chunk = Buffer.alloc(CHUNK_HEADER_BYTES + data.length + padding);
  chunk.write(fourCc, 0, 'latin1');
  chunk.writeUInt32LE(data.length, 4);
  data.copy(chunk, CHUNK_HEADER_BYTES);
  return chunk;
}

function vp8xChunk(flags: number, width: number, height: number): Buffer {
  const payload = Buffer.alloc(VP8X_PAYLOAD_BYTES);
  payload[0] = flags;
  payload.writeUIntLE(width - 1, 4, 3);
  payload.writeUIntLE(height - 1, 7, 3);
  return riffChunk('VP8X', payload);
}

interface SimpleWebpInfo {
  width: number;
  height: number;
  alpha: boolean;
}

/** Canvas size of a lossy (VP8) key frame. */
function vp8Info(payload: Buffer): SimpleWebpInfo {
  if (payload.length < 10 || (payload[0]! & 1) !== 0 || payload.readUIntBE(3, 3) !== 0x9d012a) {
    throw new LibraryWriteError('corrupt', 'The WebP VP8 chunk does not start with a key frame.');
  }
  return {
    width: payload.readUInt16LE(6) & 0x3fff,
    height: payload.readUInt16LE(8) & 0x3fff,
    alpha: false,
  };
}

/** Canvas size and alpha bit of a lossless (VP8L) image. */
function vp8lInfo(payload: Buffer): SimpleWebpInfo {
  if (payload.length < 5 || payload[0] !== 0x2f) {
    throw new LibraryWriteError('corrupt', 'The WebP VP8L chunk has no lossless signature.');
  }
  const bits = payload.readUInt32LE(1);
  return {
    width: (bits & 0x3fff) + 1,
    height: ((bits >>> 14) & 0x3fff) + 1,
    alpha: ((bits >>> 28) & 1) === 1,
  };
}

/**
 * Makes the file an extended (VP8X) WebP with the XMP flag set and appends an `XMP ` chunk.
 * A simple VP8/VP8L file gets a new VP8X chunk; an extended one has its flag set. The RIFF
 * size is patched from the size the header declares, so nothing is buffered.
 */
export function planWebpEmbed(prefix: Buffer, metadata: ImageMetadata): EmbedPlan | NeedMoreBytes {
  const needBytes = RIFF_HEADER_BYTES + CHUNK_HEADER_BYTES + VP8X_PAYLOAD_BYTES;
  if (prefix.length < needBytes) return { needBytes };
  if (prefix.toString('latin1', 0, 4) !== 'RIFF' || prefix.toString('latin1', 8, 12) !== 'WEBP') {
    throw new LibraryWriteError('corrupt', 'The WebP does not start with a RIFF/WEBP header.');
  }
  const riffSize = prefix.readUInt32LE(4);
  const firstChunk = prefix.toString('latin1', 12, 16);
  const payload = prefix.subarray(RIFF_HEADER_BYTES + CHUNK_HEADER_BYTES);
  const xmp = riffChunk('XMP ', Buffer.from(buildXmpPacket(metadata), 'utf8'));

  let consumed = RIFF_HEADER_BYTES;
  let extended: Buffer;
  let canvas: { width: number; height: number };
  if (firstChunk === 'VP8X') {
    consumed += CHUNK_HEADER_BYTES + VP8X_PAYLOAD_BYTES;
    extended = Buffer.from(prefix.subarray(RIFF_HEADER_BYTES, consumed));
    extended[CHUNK_HEADER_BYTES] = extended[CHUNK_HEADER_BYTES]! | VP8X_FLAG_XMP;
    canvas = { width: payload.readUIntLE(4, 3) + 1, height: payload.readUIntLE(7, 3) + 1 };
  } else if (firstChunk === 'VP8 ' || firstChunk === 'VP8L') {
    const info = firstChunk === 'VP8 ' ? vp8Info(payload) : vp8lInfo(payload);
    canvas = info;
    extended = vp8xChunk(
      VP8X_FLAG_XMP | (info.alpha ? VP8X_FLAG_ALPHA : 0),
      info.width,
      info.height,
    );
  } else {
    throw new LibraryWriteError(
      'corrupt',
      `The WebP starts with an unknown chunk "${firstChunk}".`,
    );
  }
  const newRiffSize = riffSize + (firstChunk === 'VP8X' ? 0 : extended.length) + xmp.length;
  if (newRiffSize > 0xffffffff) {
    throw new LibraryWriteError('corrupt', 'The WebP is too large to carry metadata.');
  }
  const header = Buffer.alloc(RIFF_HEADER_BYTES);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(newRiffSize, 4);
  header.write('WEBP', 8, 'latin1');
  return {
    consumed,
    head: Buffer.concat([header, extended]),
    trailer: xmp,
    width: canvas.width,
    height: canvas.height,
    declaredSourceBytes: riffSize + 8,
  };
}

/** The payloads of every `XMP ` chunk of a WebP, in file order. */
export function readWebpXmpPackets(webp: Buffer): string[] {
  const packets: string[] = [];
  if (webp.toString('latin1', 0, 4) !== 'RIFF' || webp.toString('latin1', 8, 12) !== 'WEBP') {
    return packets;
  }
  const end = Math.min(webp.length, webp.readUInt32LE(4) + 8);
  let offset = RIFF_HEADER_BYTES;
  while (offset + CHUNK_HEADER_BYTES <= end) {
    const size = webp.readUInt32LE(offset + 4);
    const dataStart = offset + CHUNK_HEADER_BYTES;
    if (dataStart + size > end) break;
    if (webp.toString('latin1', offset, offset + 4) === 'XMP ') {
      packets.push(webp.toString('utf8', dataStart, dataStart + size));
    }
    offset = dataStart + size + (size % 2);
  }
  return packets;
}
