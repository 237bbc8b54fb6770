import { createRandom } from '../random.ts';

export interface FrameSpec {
  width: number;
  height: number;
  count: number;
  /** Same seed, same pictures. */
  seed: number;
  /** Render only the first `only` frames (a thumbnail needs one). */
  only?: number;
}

type Rgb = [number, number, number];

function colour(random: () => number): Rgb {
  return [0, 0, 0].map(() => 40 + Math.floor(random() * 200)) as Rgb;
}

/**
 * Renders the frames of a simulated clip as packed 8-bit RGB (3 bytes a pixel, rows top to
 * bottom): a gradient in colours drawn from the seed, with a disc that travels across the
 * picture, so a player visibly shows motion.
 */
export function renderFrames(spec: FrameSpec): Buffer[] {
  const random = createRandom(spec.seed);
  const [top, bottom, disc] = [colour(random), colour(random), colour(random)];
  const radius = Math.max(4, Math.round(Math.min(spec.width, spec.height) / 6));
  const frames: Buffer[] = [];
  for (let frame = 0; frame < Math.min(spec.count, spec.only ?? spec.count); frame++) {
    const t = spec.count > 1 ? frame / (spec.count - 1) : 0;
    const cx = radius + t * (spec.width - 2 * radius);
    const cy = spec.height / 2 + Math.sin(t * Math.PI * 2) * (spec.height / 4);
    const raw = Buffer.alloc(spec.width * spec.height * 3);
    for (let y = 0; y < spec.height; y++) {
      const mix = y / Math.max(1, spec.height - 1);
      for (let x = 0; x < spec.width; x++) {
        const inside = (x - cx) ** 2 + (y - cy) ** 2 <= radius * radius;
        const offset = (y * spec.width + x) * 3;
        for (let c = 0; c < 3; c++) {
          raw[offset + c] = inside ? disc[c]! : Math.round(top[c]! * (1 - mix) + bottom[c]! * mix);
        }
      }
    }
    frames.push(raw);
  }
  return frames;
}
