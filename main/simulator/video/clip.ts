import sharp from 'sharp';
import { seedFrom } from '../random.ts';
import { renderFrames } from './frames.ts';
import { encodeH264 } from './h264.ts';
import { muxAvcMp4 } from './mp4.ts';
import { rgbToYuv420 } from './yuv.ts';

/**
 * Frames per second of simulated clips: enough to show motion, few enough to stay small
 * (every frame is raw I_PCM, 384 bytes a macroblock).
 */
export const CLIP_FPS = 4;
/** Longer side of simulated clips in pixels; the requested size is scaled down to it. */
export const CLIP_LONG_SIDE = 192;

/** The pixel size of the simulated clip for a requested `WxH`, keeping its aspect ratio. */
export function clipDimensions(size: string): { width: number; height: number } {
  const [w = 1, h = 1] = size.split('x').map(Number);
  const scale = CLIP_LONG_SIDE / Math.max(w, h);
  // 4:2:0 chroma halves each side, so H.264 crops only to even sides.
  const even = (n: number) => Math.max(16, 2 * Math.round((n * scale) / 2));
  return { width: even(w), height: even(h) };
}

function framesOf(prompt: string, size: string, seconds: number, only?: number): Buffer[] {
  return renderFrames({
    ...clipDimensions(size),
    count: seconds * CLIP_FPS,
    seed: seedFrom('video', prompt, size, seconds),
    ...(only === undefined ? {} : { only }),
  });
}

/**
 * Renders the MP4 (H.264 Constrained Baseline) of a finished task: as many seconds as asked,
 * in the asked aspect ratio. Deterministic per prompt, size and duration.
 */
// async: callers already await it, and a throw becomes a rejected promise like any failure.
export async function renderClip(prompt: string, size: string, seconds: number): Promise<Buffer> {
  const { width, height } = clipDimensions(size);
  const pictures = framesOf(prompt, size, seconds).map((rgb) => rgbToYuv420(rgb, width, height));
  return muxAvcMp4({
    width,
    height,
    framesPerSecond: CLIP_FPS,
    stream: encodeH264(pictures, CLIP_FPS),
  });
}

/** The `thumbnail` variant: the clip's first frame as a JPEG. */
export async function renderThumbnail(
  prompt: string,
  size: string,
  seconds: number,
): Promise<Buffer> {
  const { width, height } = clipDimensions(size);
  const [first] = framesOf(prompt, size, seconds, 1);
  if (!first) throw new Error('renderFrames returned no frame');
  return sharp(first, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 70, chromaSubsampling: '4:2:0' })
    .toBuffer();
}
