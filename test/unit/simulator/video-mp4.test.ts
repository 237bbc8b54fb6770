import { describe, expect, it } from 'vitest';
import { clipDimensions, renderClip } from '../../../main/simulator/video/clip.ts';
import { muxMjpegMp4 } from '../../../main/simulator/video/mp4.ts';
import { readBoxes, summariseMp4 } from '../../integration/simulator/video-boxes.ts';

/** Stand-ins for JPEG frames: distinct bytes of different lengths between SOI and EOI. */
const fakeFrames = [5, 9, 2].map((n, i) =>
  Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(n, i + 1), Buffer.from([0xff, 0xd9])]),
);

describe('muxMjpegMp4', () => {
  it('lays out ftyp, moov, mdat, and the sample table finds every frame byte for byte', () => {
    const file = muxMjpegMp4({ width: 32, height: 16, framesPerSecond: 4, frames: fakeFrames });
    expect(readBoxes(file).map((b) => b.type)).toEqual(['ftyp', 'moov', 'mdat']);
    const mp4 = summariseMp4(file);
    expect(mp4).toMatchObject({
      brand: 'isom',
      width: 32,
      height: 16,
      codec: 'mp4v',
      handler: 'vide',
    });
    expect(mp4.objectType).toBe(0x6c);
    expect(mp4.durationTicks / mp4.timescale).toBe(0.75);
    expect(mp4.samples).toEqual(fakeFrames);
  });

  it('is deterministic', () => {
    const clip = { width: 32, height: 16, framesPerSecond: 4, frames: fakeFrames };
    expect(muxMjpegMp4(clip).equals(muxMjpegMp4(clip))).toBe(true);
  });

  it('refuses no frames and frame rates that do not divide the millisecond timescale', () => {
    expect(() => muxMjpegMp4({ width: 2, height: 2, framesPerSecond: 4, frames: [] })).toThrow(
      /at least one frame/,
    );
    expect(() =>
      muxMjpegMp4({ width: 2, height: 2, framesPerSecond: 7, frames: fakeFrames }),
    ).toThrow(/divide/);
  });
});

describe('renderClip', () => {
  it('scales the asked size to a 256-pixel long side, keeping the aspect ratio', () => {
    expect(clipDimensions('1280x720')).toEqual({ width: 256, height: 144 });
    expect(clipDimensions('720x1280')).toEqual({ width: 144, height: 256 });
    expect(clipDimensions('1792x1024')).toEqual({ width: 256, height: 146 });
  });

  it('renders seconds × 4 real JPEG frames of the scaled size', async () => {
    const file = await renderClip('a red tram', '1280x720', 4);
    const mp4 = summariseMp4(file);
    expect(mp4.samples).toHaveLength(16);
    expect(mp4.durationTicks / mp4.timescale).toBe(4);
    for (const frame of mp4.samples) {
      // SOF0 (baseline) carries the frame height and width.
      const sof = frame.indexOf(Buffer.from([0xff, 0xc0]));
      expect(sof).toBeGreaterThan(0);
      expect([frame.readUInt16BE(sof + 5), frame.readUInt16BE(sof + 7)]).toEqual([144, 256]);
    }
  });
});
