import { seedFrom } from '../random.ts';
import { renderFrames } from './frames.ts';
import { muxMjpegMp4 } from './mp4.ts';

/** Frames per second of simulated clips: enough to show motion, few enough to stay small. */
export const CLIP_FPS = 4;
/** Longer side of simulated clips in pixels; the requested size is scaled down to it. */
export const CLIP_LONG_SIDE = 256;

/** The pixel size of the simulated clip for a requested `WxH`, keeping its aspect ratio. */
export function clipDimensions(size: string): { width: number; height: number } {
  const [w = 1, h = 1] = size.split('x').map(Number);
  const scale = CLIP_LONG_SIDE / Math.max(w, h);
  // JPEG and most decoders prefer even sides.
  const even = (n: number) => Math.max(16, 2 * Math.round((n * scale) / 2));
  return { width: even(w), height: even(h) };
}

/**
 * Renders the MP4 of a finished task: as many seconds as asked, in the asked aspect ratio.
 * Deterministic per prompt, size and duration.
 */
export async function renderClip(prompt: string, size: string, seconds: number): Promise<Buffer> {
  const { width, height } = clipDimensions(size);
  const frames = await renderFrames({
    width,
    height,
    count: seconds * CLIP_FPS,
    seed: seedFrom('video', prompt, size, seconds),
  });
  return muxMjpegMp4({ width, height, framesPerSecond: CLIP_FPS, frames });
}

/** The `thumbnail` variant: the clip's first frame as a JPEG. */
export async function renderThumbnail(
  prompt: string,
  size: string,
  seconds: number,
): Promise<Buffer> {
  const { width, height } = clipDimensions(size);
  const [first] = await renderFrames({
    width,
    height,
    count: seconds * CLIP_FPS,
    seed: seedFrom('video', prompt, size, seconds),
    only: 1,
  });
  if (!first) throw new Error('renderFrames returned no frame');
  return first;
}
