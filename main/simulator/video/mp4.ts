import type { H264Stream } from './h264.ts';

/**
 * A minimal MP4 (ISO BMFF, ISO/IEC 14496-12) muxer for one H.264 video track: an `avc1` sample
 * entry whose `avcC` box (ISO/IEC 14496-15) carries the SPS and PPS; each sample is one
 * picture's NAL units, each after its 4-byte length. Layout: ftyp, moov, mdat (moov first, so
 * players can start before the whole file has arrived).
 */

export interface AvcClip {
  /** The visible picture size (after the SPS's cropping). */
  width: number;
  height: number;
  framesPerSecond: number;
  stream: H264Stream;
}

/** Movie and media time unit: milliseconds. */
const TIMESCALE = 1000;
/** Bytes of the length before each NAL unit in a sample (avcC lengthSizeMinusOne + 1). */
const NAL_LENGTH_SIZE = 4;
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

/** AVCDecoderConfigurationRecord (ISO/IEC 14496-15 §5.3.3.1) with one SPS and one PPS. */
function avcC(stream: H264Stream): Buffer {
  return box(
    'avcC',
    u8(1), // configurationVersion
    u8(stream.profileIdc),
    u8(stream.constraintFlags),
    u8(stream.levelIdc),
    u8(0xfc | (NAL_LENGTH_SIZE - 1)),
    u8(0xe0 | 1), // one SPS
    u16(stream.sps.length),
    stream.sps,
    u8(1), // one PPS
    u16(stream.pps.length),
    stream.pps,
  );
}

function sampleEntry(clip: AvcClip): Buffer {
  const compressor = Buffer.alloc(32);
  compressor.write('\u000bH.264 I_PCM', 'latin1');
  return box(
    'avc1',
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
    avcC(clip.stream),
  );
}

function sampleTable(clip: AvcClip, samples: readonly Buffer[], chunkOffset: number): Buffer {
  const count = samples.length;
  const sizes = samples.map((s) => s.length);
  return box(
    'stbl',
    fullBox('stsd', 0, 0, u32(1), sampleEntry(clip)),
    fullBox('stts', 0, 0, u32(1), u32(count), u32(TIMESCALE / clip.framesPerSecond)),
    // Every sample is an IDR picture, so every one is a sync sample (a seek point).
    fullBox('stss', 0, 0, u32(count), ...samples.map((_, i) => u32(i + 1))),
    // All samples in one chunk: one stsc entry, one chunk offset.
    fullBox('stsc', 0, 0, u32(1), u32(1), u32(count), u32(1)),
    fullBox('stsz', 0, 0, u32(0), u32(count), ...sizes.map(u32)),
    fullBox('stco', 0, 0, u32(1), u32(chunkOffset)),
  );
}

function movie(clip: AvcClip, samples: readonly Buffer[], chunkOffset: number): Buffer {
  if (TIMESCALE % clip.framesPerSecond !== 0) {
    throw new Error(`framesPerSecond must divide ${TIMESCALE}; got ${clip.framesPerSecond}.`);
  }
  const durationMs = (samples.length * TIMESCALE) / clip.framesPerSecond;
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
  const minf = box('minf', vmhd, dinf, sampleTable(clip, samples, chunkOffset));
  return box('moov', mvhd, box('trak', tkhd, box('mdia', mdhd, hdlr, minf)));
}

/** A sample: the picture's NAL units, each after its 4-byte big-endian length. */
function sample(nalUnits: readonly Buffer[]): Buffer {
  return Buffer.concat(nalUnits.flatMap((nal) => [u32(nal.length), nal]));
}

/** Builds a complete MP4 file from an H.264 stream. Deterministic: same stream, same bytes. */
export function muxAvcMp4(clip: AvcClip): Buffer {
  if (clip.stream.pictures.length === 0) throw new Error('A video needs at least one frame.');
  const samples = clip.stream.pictures.map((picture) => sample([picture]));
  const ftyp = box(
    'ftyp',
    Buffer.from('isom', 'latin1'),
    u32(0x200),
    Buffer.from('isomiso2avc1mp41', 'latin1'),
  );
  // The moov size does not depend on the offset value, so measure it once, then build it for real.
  const moovSize = movie(clip, samples, 0).length;
  const mdatHeader = 8;
  const moov = movie(clip, samples, ftyp.length + moovSize + mdatHeader);
  return Buffer.concat([ftyp, moov, box('mdat', ...samples)]);
}
