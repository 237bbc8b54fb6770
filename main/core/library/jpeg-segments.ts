import type { ImageMetadata } from './metadata.ts';
import { buildXmpPacketWithin } from './xmp.ts';
import type { EmbedPlan, NeedMoreBytes } from './embed-plan.ts';
import { LibraryWriteError } from './write-error.ts';

const XMP_SIGNATURE = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1');
const EXIF_SIGNATURE = Buffer.from('Exif\0\0', 'latin1');
const APP0 = 0xe0;
const APP1 = 0xe1;
/** A segment's length field counts itself (2 bytes) and is 16 bits wide. */
export const MAX_JPEG_XMP_BYTES = 0xffff - 2 - XMP_SIGNATURE.length;

/** An APP1 segment holding an XMP packet (standard XMP, at most 64 KB). */
export function xmpApp1Segment(xmp: Buffer): Buffer {
  if (xmp.length > MAX_JPEG_XMP_BYTES) {
    throw new RangeError(`XMP packet of ${xmp.length} bytes does not fit in a JPEG APP1 segment.`);
  }
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xff00 | APP1, 0);
  header.writeUInt16BE(2 + XMP_SIGNATURE.length + xmp.length, 2);
  return Buffer.concat([header, XMP_SIGNATURE, xmp]);
}

/**
 * Inserts an XMP APP1 segment after SOI and any JFIF (APP0) or Exif (APP1) segments that
 * follow it: both must come first in their own standards.
 */
export function planJpegEmbed(prefix: Buffer, metadata: ImageMetadata): EmbedPlan | NeedMoreBytes {
  if (prefix.length < 2) return { needBytes: 2 };
  if (prefix[0] !== 0xff || prefix[1] !== 0xd8) {
    throw new LibraryWriteError('corrupt', 'The JPEG does not start with an SOI marker.');
  }
  let offset = 2;
  for (;;) {
    if (prefix.length < offset + 10) return { needBytes: offset + 10 };
    if (prefix[offset] !== 0xff) {
      throw new LibraryWriteError('corrupt', `The JPEG has no marker at byte ${offset}.`);
    }
    const marker = prefix[offset + 1];
    const leading =
      marker === APP0 ||
      (marker === APP1 && prefix.subarray(offset + 4, offset + 10).equals(EXIF_SIGNATURE));
    if (!leading) break;
    offset += 2 + prefix.readUInt16BE(offset + 2);
  }
  const frame = findFrameSize(prefix, offset);
  if ('needBytes' in frame) return frame;
  const xmp = buildXmpPacketWithin(metadata, MAX_JPEG_XMP_BYTES);
  return {
    consumed: offset,
    head: Buffer.concat([prefix.subarray(0, offset), xmpApp1Segment(xmp)]),
    trailer: Buffer.alloc(0),
    ...frame,
    isComplete: endsWithEoi,
  };
}

/** Start-of-frame markers (baseline, progressive, lossless...): all but DHT, JPG and DAC. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/**
 * The frame's dimensions from the SOFn segment, walking the segments from `offset`, or how
 * many bytes the prefix must have to reach it. Headers before the frame are small, except ICC profiles.
 */
function findFrameSize(
  prefix: Buffer,
  offset: number,
): { width: number; height: number } | NeedMoreBytes {
  for (;;) {
    if (prefix.length < offset + 9) return { needBytes: offset + 9 };
    if (prefix[offset] !== 0xff) {
      throw new LibraryWriteError('corrupt', `The JPEG has no marker at byte ${offset}.`);
    }
    const marker = prefix[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (isStartOfFrame(marker)) {
      return { height: prefix.readUInt16BE(offset + 5), width: prefix.readUInt16BE(offset + 7) };
    }
    if (marker === 0xda || marker === 0xd9) {
      throw new LibraryWriteError('corrupt', 'The JPEG has no frame header before its data.');
    }
    offset += 2 + prefix.readUInt16BE(offset + 2);
  }
}

/** The image ends with EOI (FF D9), allowing zero padding after it as some encoders write. */
function endsWithEoi(tail: Buffer): boolean {
  let end = tail.length;
  while (end > 0 && tail[end - 1] === 0) end -= 1;
  return end >= 2 && tail[end - 2] === 0xff && tail[end - 1] === 0xd9;
}

/** The XMP packets of a JPEG's APP1 segments, in file order. Reads up to the scan data. */
export function readJpegXmpPackets(jpeg: Buffer): string[] {
  const packets: string[] = [];
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return packets;
  let offset = 2;
  while (offset + 4 <= jpeg.length) {
    if (jpeg[offset] !== 0xff) break;
    const marker = jpeg[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break; // start of scan / end of image
    const length = jpeg.readUInt16BE(offset + 2);
    const start = offset + 4;
    const end = offset + 2 + length;
    if (end > jpeg.length) break;
    if (
      marker === APP1 &&
      jpeg.subarray(start, start + XMP_SIGNATURE.length).equals(XMP_SIGNATURE)
    ) {
      packets.push(jpeg.toString('utf8', start + XMP_SIGNATURE.length, end));
    }
    offset = end;
  }
  return packets;
}
