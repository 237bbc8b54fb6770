/**
 * A tiny H.264 reader for tests, written apart from the encoder so it checks it independently:
 * parameter sets, and slices made only of I_PCM macroblocks (ITU-T H.264 §7.3).
 */

/** Removes emulation prevention bytes: 00 00 03 becomes 00 00. */
export function unescapeRbsp(payload: Uint8Array): Buffer {
  const out: number[] = [];
  let zeros = 0;
  for (const byte of payload) {
    if (zeros >= 2 && byte === 0x03) {
      zeros = 0;
      continue;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return Buffer.from(out);
}

export class BitReader {
  private bit = 0;
  private readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  u(width: number): number {
    let value = 0;
    for (let i = 0; i < width; i++) {
      const byte = this.bytes[this.bit >> 3];
      if (byte === undefined) throw new Error(`Read past the end at bit ${this.bit}`);
      value = value * 2 + ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit++;
    }
    return value;
  }

  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) zeros++;
    return 2 ** zeros - 1 + this.u(zeros);
  }

  se(): number {
    const k = this.ue();
    return k % 2 === 1 ? (k + 1) / 2 : -k / 2;
  }

  get byteAligned(): boolean {
    return this.bit % 8 === 0;
  }

  get bitsLeft(): number {
    return this.bytes.length * 8 - this.bit;
  }
}

/** The RBSP of a NAL unit and its header fields. */
export function readNal(nal: Buffer) {
  return {
    forbiddenZero: nal[0]! >> 7,
    refIdc: (nal[0]! >> 5) & 3,
    type: nal[0]! & 0x1f,
    rbsp: unescapeRbsp(nal.subarray(1)),
  };
}

/** The SPS fields a Baseline stream uses, and the picture size after cropping. */
export function readSps(nal: Buffer) {
  const r = new BitReader(readNal(nal).rbsp);
  const profile = r.u(8);
  const constraints = r.u(8);
  const level = r.u(8);
  const id = r.ue();
  const log2MaxFrameNum = r.ue() + 4;
  const pocType = r.ue();
  if (pocType !== 2) throw new Error('This reader follows pic_order_cnt_type 2 only');
  const maxRefFrames = r.ue();
  const gapsAllowed = r.u(1);
  const widthMbs = r.ue() + 1;
  const heightMbs = r.ue() + 1;
  const frameMbsOnly = r.u(1);
  if (frameMbsOnly !== 1) throw new Error('This reader follows frame_mbs_only_flag 1 only');
  const direct8x8 = r.u(1);
  const crop = { left: 0, right: 0, top: 0, bottom: 0 };
  if (r.u(1) === 1) {
    crop.left = r.ue();
    crop.right = r.ue();
    crop.top = r.ue();
    crop.bottom = r.ue();
  }
  const vui = r.u(1) === 1 ? readVui(r) : null;
  expectTrailingBits(r);
  return {
    profile,
    constraints,
    level,
    id,
    log2MaxFrameNum,
    pocType,
    maxRefFrames,
    gapsAllowed,
    widthMbs,
    heightMbs,
    direct8x8,
    crop,
    vui,
    // 4:2:0 crops in units of two luma samples.
    width: widthMbs * 16 - 2 * (crop.left + crop.right),
    height: heightMbs * 16 - 2 * (crop.top + crop.bottom),
  };
}

function readVui(r: BitReader) {
  if (r.u(1) === 1) throw new Error('This reader does not follow aspect_ratio_info');
  if (r.u(1) === 1) throw new Error('This reader does not follow overscan_info');
  let colour: number[] | null = null;
  let fullRange = 0;
  if (r.u(1) === 1) {
    r.u(3); // video_format
    fullRange = r.u(1);
    if (r.u(1) === 1) colour = [r.u(8), r.u(8), r.u(8)];
  }
  if (r.u(1) === 1) throw new Error('This reader does not follow chroma_loc_info');
  if (r.u(1) === 1) throw new Error('This reader does not follow timing_info');
  if (r.u(1) + r.u(1) !== 0) throw new Error('This reader does not follow HRD parameters');
  r.u(1); // pic_struct_present_flag
  let maxReorder: number | null = null;
  let maxDecFrameBuffering: number | null = null;
  if (r.u(1) === 1) {
    r.u(1); // motion_vectors_over_pic_boundaries_flag
    for (let i = 0; i < 4; i++) r.ue(); // max bytes/bits denominators, log2 max mv lengths
    maxReorder = r.ue();
    maxDecFrameBuffering = r.ue();
  }
  return { colour, fullRange, maxReorder, maxDecFrameBuffering };
}

function expectTrailingBits(r: BitReader) {
  if (r.u(1) !== 1) throw new Error('No rbsp_stop_one_bit');
  while (!r.byteAligned) if (r.u(1) !== 0) throw new Error('rbsp_alignment_zero_bit is not 0');
  if (r.bitsLeft !== 0) throw new Error(`${r.bitsLeft / 8} bytes after the RBSP trailing bits`);
}

export function readPps(nal: Buffer) {
  const r = new BitReader(readNal(nal).rbsp);
  const pps = {
    id: r.ue(),
    spsId: r.ue(),
    cabac: r.u(1),
    bottomFieldPocPresent: r.u(1),
    sliceGroups: r.ue() + 1,
    refIdxL0: r.ue() + 1,
    refIdxL1: r.ue() + 1,
    weightedPred: r.u(1),
    weightedBipred: r.u(2),
    qp: 26 + r.se(),
    qs: 26 + r.se(),
    chromaQpOffset: r.se(),
    deblockingControl: r.u(1),
    constrainedIntra: r.u(1),
    redundantPicCnt: r.u(1),
  };
  expectTrailingBits(r);
  return pps;
}

/**
 * Decodes an IDR slice of I_PCM macroblocks (as written with the SPS/PPS above: frame_num in
 * `log2MaxFrameNum` bits, deblocking control present) into its padded 4:2:0 planes.
 */
export function readPcmSlice(
  nal: Buffer,
  sps: { widthMbs: number; heightMbs: number; log2MaxFrameNum: number },
) {
  const { type, refIdc, rbsp } = readNal(nal);
  const r = new BitReader(rbsp);
  const header = {
    type,
    refIdc,
    firstMb: r.ue(),
    sliceType: r.ue(),
    ppsId: r.ue(),
    frameNum: r.u(sps.log2MaxFrameNum),
    idrPicId: type === 5 ? r.ue() : null,
    noOutputOfPriorPics: r.u(1),
    longTermReference: r.u(1),
    qpDelta: r.se(),
    disableDeblocking: r.ue(),
  };
  const lumaWidth = sps.widthMbs * 16;
  const y = new Uint8Array(lumaWidth * sps.heightMbs * 16);
  const u = new Uint8Array(y.length / 4);
  const v = new Uint8Array(y.length / 4);
  const mbTypes = new Set<number>();
  for (let mb = 0; mb < sps.widthMbs * sps.heightMbs; mb++) {
    mbTypes.add(r.ue());
    while (!r.byteAligned) if (r.u(1) !== 0) throw new Error('pcm_alignment_zero_bit is not 0');
    const [mbX, mbY] = [mb % sps.widthMbs, Math.floor(mb / sps.widthMbs)];
    for (let i = 0; i < 256; i++) {
      y[(mbY * 16 + (i >> 4)) * lumaWidth + mbX * 16 + (i & 15)] = r.u(8);
    }
    for (const plane of [u, v]) {
      for (let i = 0; i < 64; i++) {
        plane[(mbY * 8 + (i >> 3)) * (lumaWidth / 2) + mbX * 8 + (i & 7)] = r.u(8);
      }
    }
  }
  expectTrailingBits(r);
  return { header, mbTypes: [...mbTypes], y, u, v };
}
