import { createRandom } from '../random.ts';

/**
 * Paints a picture as raw RGB bytes: a two-colour gradient under a few soft discs, all chosen by
 * `seed`. Smooth on purpose: it scales up without artefacts and compresses well.
 *
 * The simulator paints one per image request, thousands a second on a machine it shares with the
 * app under test, so the loops use 16.16 fixed point, stepped along each row, and each disc visits
 * only the pixels it covers.
 */
export function paintPicture(width: number, height: number, seed: number): Buffer {
  const random = createRandom(seed);
  const hue = random();
  const from = hsl(hue, 0.55, 0.3 + random() * 0.2);
  const to = hsl(hue + 0.25 + random() * 0.25, 0.6, 0.6 + random() * 0.2);
  const angle = random() * Math.PI * 2;
  const out = Buffer.allocUnsafe(width * height * 3);
  paintGradient(out, width, height, from, to, Math.cos(angle), Math.sin(angle));

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

/** 1 in 16.16 fixed point. */
const ONE = 65536;

/**
 * Gradient: t runs from 0 to 1 along the direction (dx, dy) through the centre. Along a row t is
 * linear in x, so each row is a stretch of `from` or `to` where t is clamped, and a ramp between
 * them that steps each channel by a constant.
 */
function paintGradient(
  out: Buffer,
  width: number,
  height: number,
  from: [number, number, number],
  to: [number, number, number],
  dx: number,
  dy: number,
): void {
  const span = Math.abs(dx) * width + Math.abs(dy) * height || 1;
  const k = dx / span;
  const [r0, g0, b0] = from;
  const dr = to[0] - r0;
  const dg = to[1] - g0;
  const db = to[2] - b0;
  // Per pixel along the row, in 16.16. (`| 0` keeps V8 on int32 maths: Math.round and the like
  // return doubles, and loops on doubles ran at half the speed.)
  const stepR = Math.round(dr * k * ONE) | 0;
  const stepG = Math.round(dg * k * ONE) | 0;
  const stepB = Math.round(db * k * ONE) | 0;
  // Where t is clamped: `from` on the side where t < 0, `to` where t > 1.
  const [left, right] = k >= 0 ? [from, to] : [to, from];
  for (let y = 0; y < height; y++) {
    // t at x = 0; the ramp is where 0 < t0 + k x < 1.
    const t0 = 0.5 + ((y + 0.5 - height / 2) * dy + (0.5 - width / 2) * dx) / span;
    let start: number;
    let end: number;
    if (k === 0) {
      start = t0 <= 0 ? width : 0;
      end = t0 < 1 ? width : 0;
    } else {
      const a = -t0 / k;
      const b = (1 - t0) / k;
      start = Math.min(width, Math.max(0, Math.ceil(Math.min(a, b)))) | 0;
      end = Math.min(width, Math.max(start, Math.ceil(Math.max(a, b)))) | 0;
    }
    let i = y * width * 3;
    const rowEnd = i + width * 3;
    const rampEnd = i + end * 3;
    for (const stop = i + start * 3; i < stop; i += 3) {
      out[i] = left[0];
      out[i + 1] = left[1];
      out[i + 2] = left[2];
    }
    if (i < rampEnd) {
      const t = t0 + k * start;
      let r = Math.round((r0 + dr * t) * ONE) | 0;
      let g = Math.round((g0 + dg * t) * ONE) | 0;
      let b = Math.round((b0 + db * t) * ONE) | 0;
      for (; i < rampEnd; i += 3) {
        out[i] = r >> 16;
        out[i + 1] = g >> 16;
        out[i + 2] = b >> 16;
        r += stepR;
        g += stepG;
        b += stepB;
      }
    }
    for (; i < rowEnd; i += 3) {
      out[i] = right[0];
      out[i + 1] = right[1];
      out[i + 2] = right[2];
    }
  }
}

/**
 * Blends `colour` over a disc, weighted by (1 - d²/r²)² so its edge is soft. Each row visits only
 * the pixels inside the circle. Along a row q = r² - d² drops by 2u + 1 per pixel (u = x + ½ - cx),
 * so the weight q² · strength / r⁴ needs no distance per pixel; it is applied in 16.16.
 */
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
  const [cr, cg, cb] = colour;
  const r2 = radius * radius;
  const scale = (strength * ONE) / (r2 * r2);
  const y0 = Math.max(0, Math.floor(cy - radius)) | 0;
  const y1 = Math.min(height - 1, Math.ceil(cy + radius)) | 0;
  for (let y = y0; y <= y1; y++) {
    const h2 = r2 - (y + 0.5 - cy) ** 2;
    if (h2 <= 0) continue;
    const h = Math.sqrt(h2);
    const x0 = Math.max(0, Math.ceil(cx - 0.5 - h)) | 0;
    const x1 = Math.min(width - 1, Math.floor(cx - 0.5 + h)) | 0;
    const u = x0 + 0.5 - cx;
    let q = h2 - u * u;
    let dq = 2 * u + 1;
    for (let i = (y * width + x0) * 3, end = (y * width + x1) * 3; i <= end; i += 3) {
      // At the rim, round-off can leave q just below 0: its weight still truncates to 0.
      const w = (q * q * scale) | 0;
      const r = out[i]!;
      const g = out[i + 1]!;
      const b = out[i + 2]!;
      out[i] = r + (((cr - r) * w) >> 16);
      out[i + 1] = g + (((cg - g) * w) >> 16);
      out[i + 2] = b + (((cb - b) * w) >> 16);
      q -= dq;
      dq += 2;
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
