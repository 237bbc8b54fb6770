import { createRandom } from '../random.ts';

/**
 * Paints a picture as raw RGB bytes: a two-colour gradient under a few soft discs, all chosen by
 * `seed`. Smooth on purpose: it scales up without artefacts and compresses well.
 */
export function paintPicture(width: number, height: number, seed: number): Buffer {
  const random = createRandom(seed);
  const hue = random();
  const from = hsl(hue, 0.55, 0.3 + random() * 0.2);
  const to = hsl(hue + 0.25 + random() * 0.25, 0.6, 0.6 + random() * 0.2);
  const angle = random() * Math.PI * 2;
  const dx = Math.cos(angle);
  const dy = Math.sin(angle);
  const out = Buffer.allocUnsafe(width * height * 3);

  // Gradient: t runs from 0 to 1 along the chosen direction through the centre.
  const span = Math.abs(dx) * width + Math.abs(dy) * height || 1;
  for (let y = 0; y < height; y++) {
    const rowT = 0.5 + ((y + 0.5 - height / 2) * dy) / span;
    let i = y * width * 3;
    for (let x = 0; x < width; x++, i += 3) {
      const t = Math.min(1, Math.max(0, rowT + ((x + 0.5 - width / 2) * dx) / span));
      out[i] = from[0] + (to[0] - from[0]) * t;
      out[i + 1] = from[1] + (to[1] - from[1]) * t;
      out[i + 2] = from[2] + (to[2] - from[2]) * t;
    }
  }

  // Soft discs, each touching only its own bounding box.
  const discs = 3 + Math.floor(random() * 4);
  const unit = Math.min(width, height);
  for (let d = 0; d < discs; d++) {
    const cx = random() * width;
    const cy = random() * height;
    const radius = Math.max(1, unit * (0.12 + random() * 0.3));
    const colour = hsl(hue + random() * 0.6 - 0.3, 0.5 + random() * 0.4, 0.35 + random() * 0.5);
    const strength = 0.55 + random() * 0.4;
    blendDisc(out, width, height, cx, cy, radius, colour, strength);
  }
  return out;
}

function blendDisc(
  out: Buffer,
  width: number,
  height: number,
  cx: number,
  cy: number,
  radius: number,
  colour: [number, number, number],
  strength: number,
): void {
  const r2 = radius * radius;
  const x0 = Math.max(0, Math.floor(cx - radius));
  const x1 = Math.min(width - 1, Math.ceil(cx + radius));
  const y0 = Math.max(0, Math.floor(cy - radius));
  const y1 = Math.min(height - 1, Math.ceil(cy + radius));
  for (let y = y0; y <= y1; y++) {
    const ddy = (y + 0.5 - cy) ** 2;
    let i = (y * width + x0) * 3;
    for (let x = x0; x <= x1; x++, i += 3) {
      const d2 = (x + 0.5 - cx) ** 2 + ddy;
      if (d2 >= r2) continue;
      const falloff = 1 - d2 / r2;
      const w = falloff * falloff * strength;
      out[i] = out[i]! + (colour[0] - out[i]!) * w;
      out[i + 1] = out[i + 1]! + (colour[1] - out[i + 1]!) * w;
      out[i + 2] = out[i + 2]! + (colour[2] - out[i + 2]!) * w;
    }
  }
}

/** Lightens a bar in the bottom-right corner: the simulator's visible "watermark". */
export function stampWatermark(raw: Buffer, width: number, height: number): void {
  const barWidth = Math.max(1, Math.round(width / 4));
  const barHeight = Math.max(1, Math.round(height / 16));
  const margin = Math.round(Math.min(width, height) / 32);
  for (let y = height - margin - barHeight; y < height - margin; y++) {
    if (y < 0) continue;
    for (let x = width - margin - barWidth; x < width - margin; x++) {
      if (x < 0) continue;
      const i = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) raw[i + c] = (raw[i + c]! + 255) >> 1;
    }
  }
}

/** HSL (each 0..1, hue wrapping) to RGB 0..255. */
export function hsl(h: number, s: number, l: number): [number, number, number] {
  const hue = ((h % 1) + 1) % 1;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + hue * 12) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}
