/**
 * A minimal MP4 (ISO BMFF, ISO/IEC 14496-12) muxer for one Motion-JPEG video track.
 * JPEG in MP4 is signalled as an `mp4v` sample entry whose decoder config names object type
 * 0x6C (ISO/IEC 10918-1 JPEG), as ffmpeg writes it. Layout: ftyp, moov, mdat (moov first,
 * so players can start before the whole file has arrived).
 */

export interface MjpegClip {
  width: number;
  height: number;
  framesPerSecond: number;
  /** One baseline JPEG per frame. */
  frames: readonly Buffer[];
}

/** Movie and media time unit: milliseconds. */
const TIMESCALE = 1000;
const JPEG_OBJECT_TYPE = 0x6c;
const VISUAL_STREAM_TYPE = 0x04;
const IDENTITY_MATRIX = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000];

function u8(value: number): Buffer {
  return Buffer.from([value & 0xff]);
}
function u16(value: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(value);
  return b;
}
function u32(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(value >>> 0);
  return b;
}
function zeros(length: number): Buffer {
  return Buffer.alloc(length);
}

export function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  return Buffer.concat([u32(8 + body.length), Buffer.from(type, 'latin1'), body]);
}

/** A "full box": version and 24-bit flags before the payload. */
function fullBox(type: string, version: number, flags: number, ...payload: Buffer[]): Buffer {
  return box(type, u8(version), u8(flags >> 16), u16(flags & 0xffff), ...payload);
}

const matrix = () => Buffer.concat(IDENTITY_MATRIX.map(u32));

/** MPEG-4 descriptor: tag, length (4-byte form, as common muxers write it), body. */
function descriptor(tag: number, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const n = body.length;
  return Buffer.concat([
    u8(tag),
    Buffer.from([
      0x80 | ((n >> 21) & 0x7f),
      0x80 | ((n >> 14) & 0x7f),
      0x80 | ((n >> 7) & 0x7f),
      n & 0x7f,
    ]),
    body,
  ]);
}

function esds(maxFrameSize: number, bitrate: number): Buffer {
  const decoderConfig = descriptor(
    0x04,
    u8(JPEG_OBJECT_TYPE),
    u8((VISUAL_STREAM_TYPE << 2) | 1),
    u8(maxFrameSize >> 16),
    u16(maxFrameSize & 0xffff),
    u32(bitrate),
    u32(bitrate),
  );
  const slConfig = descriptor(0x06, u8(0x02));
  return fullBox('esds', 0, 0, descriptor(0x03, u16(1), u8(0), decoderConfig, slConfig));
}

function sampleEntry(clip: MjpegClip, maxFrameSize: number, bitrate: number): Buffer {
  const compressor = Buffer.alloc(32);
  compressor.write('\u000cMotion JPEG', 'latin1');
  return box(
    'mp4v',
    zeros(6),
    u16(1), // data_reference_index
    zeros(16), // pre_defined, reserved
    u16(clip.width),
    u16(clip.height),
    u32(0x00480000), // 72 dpi
    u32(0x00480000),
    zeros(4),
    u16(1), // frame_count per sample
    compressor,
    u16(0x0018), // 24-bit colour
    u16(0xffff), // pre_defined = -1
    esds(maxFrameSize, bitrate),
  );
}

function sampleTable(clip: MjpegClip, chunkOffset: number, durationMs: number): Buffer {
  const count = clip.frames.length;
  const sizes = clip.frames.map((f) => f.length);
  const maxFrameSize = Math.max(...sizes);
  const totalBytes = sizes.reduce((a, b) => a + b, 0);
  const bitrate = Math.round((totalBytes * 8 * 1000) / Math.max(durationMs, 1));
  return box(
    'stbl',
    fullBox('stsd', 0, 0, u32(1), sampleEntry(clip, maxFrameSize, bitrate)),
    fullBox('stts', 0, 0, u32(1), u32(count), u32(TIMESCALE / clip.framesPerSecond)),
    // All samples in one chunk: one stsc entry, one chunk offset.
    fullBox('stsc', 0, 0, u32(1), u32(1), u32(count), u32(1)),
    fullBox('stsz', 0, 0, u32(0), u32(count), ...sizes.map(u32)),
    fullBox('stco', 0, 0, u32(1), u32(chunkOffset)),
  );
}

function movie(clip: MjpegClip, chunkOffset: number): Buffer {
  if (TIMESCALE % clip.framesPerSecond !== 0) {
    throw new Error(`framesPerSecond must divide ${TIMESCALE}; got ${clip.framesPerSecond}.`);
  }
  const durationMs = (clip.frames.length * TIMESCALE) / clip.framesPerSecond;
  const mvhd = fullBox(
    'mvhd',
    0,
    0,
    u32(0), // creation and modification time: fixed, so output is byte-for-byte reproducible
    u32(0),
    u32(TIMESCALE),
    u32(durationMs),
    u32(0x00010000), // rate 1.0
    u16(0x0100), // volume 1.0
    zeros(10),
    matrix(),
    zeros(24),
    u32(2), // next_track_ID
  );
  const tkhd = fullBox(
    'tkhd',
    0,
    0x000003, // enabled, in movie
    u32(0),
    u32(0),
    u32(1), // track_ID
    zeros(4),
    u32(durationMs),
    zeros(8),
    u16(0), // layer
    u16(0), // alternate_group
    u16(0), // volume: 0 for video
    zeros(2),
    matrix(),
    u32(clip.width << 16),
    u32(clip.height << 16),
  );
  const mdhd = fullBox(
    'mdhd',
    0,
    0,
    u32(0),
    u32(0),
    u32(TIMESCALE),
    u32(durationMs),
    u16(0x55c4), // language "und"
    u16(0),
  );
  const hdlr = fullBox(
    'hdlr',
    0,
    0,
    u32(0),
    Buffer.from('vide', 'latin1'),
    zeros(12),
    Buffer.from('VideoHandler\u0000', 'latin1'),
  );
  const vmhd = fullBox('vmhd', 0, 1, zeros(8));
  const dinf = box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1)));
  const minf = box('minf', vmhd, dinf, sampleTable(clip, chunkOffset, durationMs));
  return box('moov', mvhd, box('trak', tkhd, box('mdia', mdhd, hdlr, minf)));
}

/** Builds a complete MP4 file from JPEG frames. Deterministic: same frames, same bytes. */
export function muxMjpegMp4(clip: MjpegClip): Buffer {
  if (clip.frames.length === 0) throw new Error('A video needs at least one frame.');
  const ftyp = box(
    'ftyp',
    Buffer.from('isom', 'latin1'),
    u32(0x200),
    Buffer.from('isomiso2mp41', 'latin1'),
  );
  // The moov size does not depend on the offset value, so measure it once, then build it for real.
  const moovSize = movie(clip, 0).length;
  const mdatHeader = 8;
  const moov = movie(clip, ftyp.length + moovSize + mdatHeader);
  return Buffer.concat([ftyp, moov, box('mdat', ...clip.frames)]);
}
