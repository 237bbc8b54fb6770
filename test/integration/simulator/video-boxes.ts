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
  objectType: number;
  /** Each sample's bytes, located through stsc/stsz/stco. */
  samples: Buffer[];
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
  // esds inside the visual sample entry, after its 78 bytes of fixed fields.
  const esds = readBoxes(entry.body, 78)[0]!;
  const decoderConfigAt = esds.body.indexOf(0x04, 4 + 1 + 4 + 3);
  const objectType = esds.body[decoderConfigAt + 5]!;

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
    objectType,
    samples,
  };
}

function expectOne(n: number, what: string) {
  if (n !== 1) throw new Error(`Expected one ${what}, found ${n}`);
}
