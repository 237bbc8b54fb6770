/** A tiny ISO BMFF reader for tests, written apart from the muxer so it checks it independently. */
export interface Box {
  type: string;
  start: number;
  size: number;
  /** Payload, after the 8-byte header. */
  body: Buffer;
}

export function readBoxes(bytes: Buffer, from = 0, to = bytes.length): Box[] {
  const boxes: Box[] = [];
  let offset = from;
  while (offset < to) {
    const size = bytes.readUInt32BE(offset);
    if (size < 8 || offset + size > to) throw new Error(`Bad box size ${size} at ${offset}`);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    boxes.push({ type, start: offset, size, body: bytes.subarray(offset + 8, offset + size) });
    offset += size;
  }
  return boxes;
}

/** Follows a path of container boxes, e.g. ['moov', 'trak', 'mdia']. */
export function findBox(bytes: Buffer, path: string[]): Box {
  let boxes = readBoxes(bytes);
  let found: Box | undefined;
  for (const type of path) {
    found = boxes.find((b) => b.type === type);
    if (!found) throw new Error(`No ${type} box on path ${path.join('/')}`);
    // Only containers hold child boxes; the last box on the path may be any box.
    if (['moov', 'trak', 'mdia', 'minf', 'stbl', 'dinf'].includes(type)) {
      boxes = readBoxes(bytes, found.start + 8, found.start + found.size);
    }
  }
  return found!;
}

export interface Mp4Summary {
  brand: string;
  timescale: number;
  durationTicks: number;
  width: number;
  height: number;
  handler: string;
  codec: string;
  /** The visual sample entry's own width and height. */
  entryWidth: number;
  entryHeight: number;
  avcC: AvcConfig;
  /** 1-based numbers of the sync samples (stss); null when every sample is one (no stss). */
  syncSamples: number[] | null;
  /** Each sample's bytes, located through stsc/stsz/stco. */
  samples: Buffer[];
}

/** The AVCDecoderConfigurationRecord (ISO/IEC 14496-15). */
export interface AvcConfig {
  version: number;
  profile: number;
  compatibility: number;
  level: number;
  /** Bytes of the length before each NAL unit in a sample. */
  lengthSize: number;
  sps: Buffer[];
  pps: Buffer[];
}

function readAvcC(body: Buffer): AvcConfig {
  let at = 6;
  const sets = (count: number) =>
    Array.from({ length: count }, () => {
      const length = body.readUInt16BE(at);
      const set = body.subarray(at + 2, at + 2 + length);
      at += 2 + length;
      return set;
    });
  const sps = sets(body[5]! & 0x1f);
  const pps = sets(body[at++]!);
  if (at !== body.length) throw new Error(`avcC has ${body.length - at} stray bytes`);
  return {
    version: body[0]!,
    profile: body[1]!,
    compatibility: body[2]!,
    level: body[3]!,
    lengthSize: (body[4]! & 0x03) + 1,
    sps,
    pps,
  };
}

/** Splits a sample into its NAL units by their length prefixes. */
export function nalUnitsOf(sample: Buffer, lengthSize = 4): Buffer[] {
  const units: Buffer[] = [];
  for (let at = 0; at < sample.length;) {
    const length = sample.readUIntBE(at, lengthSize);
    if (at + lengthSize + length > sample.length) throw new Error(`NAL unit overruns at ${at}`);
    units.push(sample.subarray(at + lengthSize, at + lengthSize + length));
    at += lengthSize + length;
  }
  return units;
}

const STBL = ['moov', 'trak', 'mdia', 'minf', 'stbl'];

/** Reads what a player reads to play the first video track. */
export function summariseMp4(bytes: Buffer): Mp4Summary {
  const ftyp = findBox(bytes, ['ftyp']);
  const mvhd = findBox(bytes, ['moov', 'mvhd']).body;
  const tkhd = findBox(bytes, ['moov', 'trak', 'tkhd']).body;
  const hdlr = findBox(bytes, ['moov', 'trak', 'mdia', 'hdlr']).body;
  const stsd = findBox(bytes, [...STBL, 'stsd']).body;
  const entry = readBoxes(stsd, 8)[0]!;
  // avcC inside the visual sample entry, after its 78 bytes of fixed fields.
  const avcC = readBoxes(entry.body, 78).find((b) => b.type === 'avcC');
  if (!avcC) throw new Error(`No avcC box in the ${entry.type} sample entry`);
  const stbl = findBox(bytes, STBL);
  const stss = readBoxes(bytes, stbl.start + 8, stbl.start + stbl.size).find(
    (b) => b.type === 'stss',
  );
  const syncSamples = stss
    ? Array.from({ length: stss.body.readUInt32BE(4) }, (_, i) => stss.body.readUInt32BE(8 + i * 4))
    : null;

  const stsz = findBox(bytes, [...STBL, 'stsz']).body;
  const count = stsz.readUInt32BE(8);
  const sizes = Array.from({ length: count }, (_, i) => stsz.readUInt32BE(12 + i * 4));
  const stco = findBox(bytes, [...STBL, 'stco']).body;
  const stsc = findBox(bytes, [...STBL, 'stsc']).body;
  expectOne(stco.readUInt32BE(4), 'chunk');
  expectOne(stsc.readUInt32BE(4), 'stsc entry');
  let offset = stco.readUInt32BE(8);
  const samples = sizes.map((size) => {
    const sample = bytes.subarray(offset, offset + size);
    offset += size;
    return sample;
  });
  return {
    brand: ftyp.body.toString('latin1', 0, 4),
    timescale: mvhd.readUInt32BE(12),
    durationTicks: mvhd.readUInt32BE(16),
    width: tkhd.readUInt32BE(76) >> 16,
    height: tkhd.readUInt32BE(80) >> 16,
    handler: hdlr.toString('latin1', 8, 12),
    codec: entry.type,
    entryWidth: entry.body.readUInt16BE(24),
    entryHeight: entry.body.readUInt16BE(26),
    avcC: readAvcC(avcC.body),
    syncSamples,
    samples,
  };
}

function expectOne(n: number, what: string) {
  if (n !== 1) throw new Error(`Expected one ${what}, found ${n}`);
}
