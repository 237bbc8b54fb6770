import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { clipDimensions, renderClip, renderThumbnail } from '../../../main/simulator/video/clip.ts';
import { renderFrames } from '../../../main/simulator/video/frames.ts';
import type { H264Stream } from '../../../main/simulator/video/h264.ts';
import { muxAvcMp4 } from '../../../main/simulator/video/mp4.ts';
import { rgbToYuv420 } from '../../../main/simulator/video/yuv.ts';
import { seedFrom } from '../../../main/simulator/random.ts';
import { readPcmSlice, readSps } from '../../integration/simulator/h264-reader.ts';
import { nalUnitsOf, readBoxes, summariseMp4 } from '../../integration/simulator/video-boxes.ts';

/** Stand-ins for coded pictures and parameter sets: distinct bytes of different lengths. */
const fakeStream: H264Stream = {
  sps: Buffer.from([0x67, 0x42, 0xc0, 0x14, 0xaa, 0xbb]),
  pps: Buffer.from([0x68, 0xce, 0x3c, 0x80]),
  profileIdc: 66,
  constraintFlags: 0xc0,
  levelIdc: 20,
  pictures: [5, 9, 2].map((n, i) => Buffer.concat([Buffer.from([0x65]), Buffer.alloc(n, i + 1)])),
};

describe('muxAvcMp4', () => {
  const clip = { width: 32, height: 16, framesPerSecond: 4, stream: fakeStream };

  it('lays out ftyp, moov, mdat with an avc1 sample entry whose avcC holds SPS and PPS', () => {
    const file = muxAvcMp4(clip);
    expect(readBoxes(file).map((b) => b.type)).toEqual(['ftyp', 'moov', 'mdat']);
    const mp4 = summariseMp4(file);
    expect(mp4).toMatchObject({
      brand: 'isom',
      width: 32,
      height: 16,
      entryWidth: 32,
      entryHeight: 16,
      codec: 'avc1',
      handler: 'vide',
    });
    expect(mp4.avcC).toEqual({
      version: 1,
      profile: 66,
      compatibility: 0xc0,
      level: 20,
      lengthSize: 4,
      sps: [fakeStream.sps],
      pps: [fakeStream.pps],
    });
  });

  it('finds every picture through stsz/stsc/stco as one length-prefixed NAL unit, all sync', () => {
    const mp4 = summariseMp4(muxAvcMp4(clip));
    expect(mp4.durationTicks / mp4.timescale).toBe(0.75);
    expect(mp4.samples.map((s) => nalUnitsOf(s, mp4.avcC.lengthSize))).toEqual(
      fakeStream.pictures.map((p) => [p]),
    );
    expect(mp4.syncSamples).toEqual([1, 2, 3]);
  });

  it('is deterministic', () => {
    expect(muxAvcMp4(clip).equals(muxAvcMp4(clip))).toBe(true);
  });

  it('refuses no frames and frame rates that do not divide the millisecond timescale', () => {
    const empty = { ...fakeStream, pictures: [] };
    expect(() => muxAvcMp4({ ...clip, stream: empty })).toThrow(/at least one frame/);
    expect(() => muxAvcMp4({ ...clip, framesPerSecond: 7 })).toThrow(/divide/);
  });
});

describe('renderClip', () => {
  it('scales the asked size to a 192-pixel long side with even sides, keeping the aspect', () => {
    expect(clipDimensions('1280x720')).toEqual({ width: 192, height: 108 });
    expect(clipDimensions('720x1280')).toEqual({ width: 108, height: 192 });
    expect(clipDimensions('1792x1024')).toEqual({ width: 192, height: 110 });
    expect(clipDimensions('1024x1792')).toEqual({ width: 110, height: 192 });
  });

  it('renders seconds × 4 H.264 pictures of the scaled size, about 130 KB a second', async () => {
    const file = await renderClip('a red tram', '1280x720', 4);
    expect(file.length).toBeLessThan(540_000);
    const mp4 = summariseMp4(file);
    expect(mp4.samples).toHaveLength(16);
    expect(mp4.durationTicks / mp4.timescale).toBe(4);
    expect([mp4.width, mp4.height, mp4.entryWidth, mp4.entryHeight]).toEqual([192, 108, 192, 108]);
    const sps = readSps(mp4.avcC.sps[0]!);
    expect(sps).toMatchObject({ width: 192, height: 108, level: mp4.avcC.level });
    // The first picture decodes to the first rendered frame's samples.
    const [first] = renderFrames({
      width: 192,
      height: 108,
      count: 16,
      seed: seedFrom('video', 'a red tram', '1280x720', 4),
      only: 1,
    });
    const decoded = readPcmSlice(nalUnitsOf(mp4.samples[0]!)[0]!, sps);
    expect(decoded.y).toEqual(rgbToYuv420(first!, 192, 108).y);
  });

  it('keeps the thumbnail a JPEG of the clip size', async () => {
    const jpeg = await renderThumbnail('a red tram', '1792x1024', 8);
    expect(jpeg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 192, height: 110 });
  });
});
