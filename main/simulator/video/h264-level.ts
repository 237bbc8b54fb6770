/** H.264 levels (Table A-1): the decoder limits a stream declares it stays within. */
interface Level {
  idc: number;
  /** Macroblocks a second, macroblocks a frame, VCL bit rate in kbit/s for Baseline. */
  maxMbps: number;
  maxFs: number;
  maxBrKbps: number;
}

const LEVELS: readonly Level[] = [
  { idc: 10, maxMbps: 1485, maxFs: 99, maxBrKbps: 64 },
  { idc: 11, maxMbps: 3000, maxFs: 396, maxBrKbps: 192 },
  { idc: 12, maxMbps: 6000, maxFs: 396, maxBrKbps: 384 },
  { idc: 13, maxMbps: 11880, maxFs: 396, maxBrKbps: 768 },
  { idc: 20, maxMbps: 11880, maxFs: 396, maxBrKbps: 2000 },
  { idc: 21, maxMbps: 19800, maxFs: 792, maxBrKbps: 4000 },
  { idc: 22, maxMbps: 20250, maxFs: 1620, maxBrKbps: 4000 },
  { idc: 30, maxMbps: 40500, maxFs: 1620, maxBrKbps: 10000 },
  { idc: 31, maxMbps: 108000, maxFs: 3600, maxBrKbps: 14000 },
  { idc: 32, maxMbps: 216000, maxFs: 5120, maxBrKbps: 20000 },
  { idc: 40, maxMbps: 245760, maxFs: 8192, maxBrKbps: 20000 },
  { idc: 42, maxMbps: 522240, maxFs: 8704, maxBrKbps: 50000 },
  { idc: 51, maxMbps: 983040, maxFs: 36864, maxBrKbps: 240000 },
];

export interface StreamShape {
  widthMbs: number;
  heightMbs: number;
  framesPerSecond: number;
  /** The largest coded frame in bytes: with I_PCM every frame is about this size. */
  frameBytes: number;
}

/** The lowest level_idc whose frame size, macroblock rate and bit rate admit the stream. */
export function levelFor(shape: StreamShape): number {
  const frameMbs = shape.widthMbs * shape.heightMbs;
  const kbps = (shape.frameBytes * 8 * shape.framesPerSecond) / 1000;
  const fits = (level: Level) =>
    frameMbs <= level.maxFs &&
    // Neither side may exceed sqrt(8 × MaxFS) macroblocks (A.3.1 f, g).
    Math.max(shape.widthMbs, shape.heightMbs) ** 2 <= 8 * level.maxFs &&
    frameMbs * shape.framesPerSecond <= level.maxMbps &&
    kbps <= level.maxBrKbps;
  const level = LEVELS.find(fits);
  if (!level) throw new Error(`No H.264 level admits ${frameMbs} macroblocks at ${kbps} kbit/s.`);
  return level.idc;
}
