import { describe, expect, it } from 'vitest';
import { encodeH264 } from '../../../main/simulator/video/h264.ts';
import { levelFor } from '../../../main/simulator/video/h264-level.ts';
import { rgbToYuv420, type Yuv420 } from '../../../main/simulator/video/yuv.ts';
import {
  readNal,
  readPcmSlice,
  readPps,
  readSps,
} from '../../integration/simulator/h264-reader.ts';

/** A picture with every sample different enough to catch a misplaced macroblock or plane. */
function pattern(width: number, height: number, seed: number): Yuv420 {
  const rgb = Buffer.from(
    Array.from({ length: width * height * 3 }, (_, i) => (i * 7 + seed * 31 + (i >> 5)) % 256),
  );
  return rgbToYuv420(rgb, width, height);
}

describe('encodeH264', () => {
  const pictures = [pattern(40, 20, 1), pattern(40, 20, 2), pattern(40, 20, 3)];
  const stream = encodeH264(pictures, 4);

  it('writes a Constrained Baseline SPS that crops the padding to the picture size', () => {
    const sps = readSps(stream.sps);
    expect(readNal(stream.sps)).toMatchObject({ forbiddenZero: 0, refIdc: 3, type: 7 });
    expect(sps).toMatchObject({
      profile: 66,
      constraints: 0xc0,
      level: stream.levelIdc,
      pocType: 2,
      widthMbs: 3,
      heightMbs: 2,
      crop: { left: 0, right: 4, top: 0, bottom: 6 },
      width: 40,
      height: 20,
      vui: { colour: [6, 6, 6], fullRange: 0, maxReorder: 0 },
    });
    expect([stream.profileIdc, stream.constraintFlags]).toEqual([66, 0xc0]);
  });

  it('writes a CAVLC PPS that lets slices turn deblocking off', () => {
    expect(readNal(stream.pps)).toMatchObject({ refIdc: 3, type: 8 });
    expect(readPps(stream.pps)).toMatchObject({
      id: 0,
      spsId: 0,
      cabac: 0,
      sliceGroups: 1,
      deblockingControl: 1,
      qp: 26,
    });
  });

  it('codes every picture as one IDR slice of I_PCM macroblocks holding its exact samples', () => {
    const sps = readSps(stream.sps);
    expect(stream.pictures).toHaveLength(3);
    stream.pictures.forEach((nal, i) => {
      const slice = readPcmSlice(nal, sps);
      expect(slice.header).toMatchObject({
        type: 5,
        refIdc: 3,
        firstMb: 0,
        sliceType: 7,
        ppsId: 0,
        frameNum: 0,
        idrPicId: i % 2, // consecutive IDR pictures differ in idr_pic_id
        disableDeblocking: 1,
      });
      expect(slice.mbTypes).toEqual([25]);
      expect(slice.y).toEqual(pictures[i]!.y);
      expect(slice.u).toEqual(pictures[i]!.u);
      expect(slice.v).toEqual(pictures[i]!.v);
    });
  });

  it('escapes start codes that samples would otherwise form', () => {
    // Full-range zeros are not what rgbToYuv420 makes, but the encoder must survive them.
    const dark: Yuv420 = { ...pattern(16, 16, 0), y: new Uint8Array(256) };
    const nal = encodeH264([dark], 4).pictures[0]!;
    for (const code of [
      [0, 0, 0],
      [0, 0, 1],
      [0, 0, 2],
    ]) {
      expect(nal.subarray(1).includes(Buffer.from(code))).toBe(false);
    }
    expect(nal.includes(Buffer.from([0, 0, 3, 0]))).toBe(true);
    expect(readPcmSlice(nal, { widthMbs: 1, heightMbs: 1, log2MaxFrameNum: 4 }).y).toEqual(dark.y);
  });

  it('refuses no pictures, odd sides and mixed sizes', () => {
    expect(() => encodeH264([], 4)).toThrow(/at least one picture/);
    const odd = rgbToYuv420(Buffer.alloc(15 * 16 * 3), 15, 16);
    expect(() => encodeH264([odd], 4)).toThrow(/even sides; got 15×16/);
    expect(() => encodeH264([pattern(40, 20, 1), pattern(20, 40, 1)], 4)).toThrow(
      /must be 40×20; got 20×40/,
    );
  });
});

describe('levelFor', () => {
  it('picks the lowest level whose frame size, macroblock rate and bit rate fit', () => {
    // 192×108 I_PCM at 4 fps: 84 macroblocks, about 1 Mbit/s: level 2.
    expect(levelFor({ widthMbs: 12, heightMbs: 7, framesPerSecond: 4, frameBytes: 32_500 })).toBe(
      20,
    );
    // A tiny, slow stream fits level 1.
    expect(levelFor({ widthMbs: 2, heightMbs: 2, framesPerSecond: 1, frameBytes: 1600 })).toBe(10);
    // 100 macroblocks: past level 1's 99.
    expect(levelFor({ widthMbs: 10, heightMbs: 10, framesPerSecond: 1, frameBytes: 10 })).toBe(11);
    // A 1-macroblock-high strip 60 wide: past sqrt(8 × 396) = 56 columns of level 1.1 to 2.
    expect(levelFor({ widthMbs: 60, heightMbs: 1, framesPerSecond: 1, frameBytes: 10 })).toBe(21);
    expect(() =>
      levelFor({ widthMbs: 300, heightMbs: 300, framesPerSecond: 60, frameBytes: 10 }),
    ).toThrow(/No H.264 level/);
  });
});
