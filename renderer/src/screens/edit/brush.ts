import type { Rect } from './mask-history.ts';

/** The brush: its tools, its sizes, and the rectangle a dab or a stroke touches. Pure. */

/** Paint where the picture may change, erase paint, or move the view (space held does too). */
export type Tool = 'brush' | 'eraser' | 'hand';

export interface BrushSettings {
  tool: Tool;
  /** The brush's diameter in the picture's own pixels (as image editors count it). */
  size: number;
}

export const BRUSH_SIZES = { min: 2, max: 800 } as const;
export const DEFAULT_BRUSH: BrushSettings = { tool: 'brush', size: 64 };

/** `[` and `]`: a step of about a sixth, never less than one pixel, within the limits. */
export function stepSize(size: number, direction: -1 | 1): number {
  const step = Math.max(1, Math.round(size * 0.15));
  return clampSize(size + direction * step);
}

export function clampSize(size: number): number {
  if (!Number.isFinite(size)) return DEFAULT_BRUSH.size;
  return Math.min(BRUSH_SIZES.max, Math.max(BRUSH_SIZES.min, Math.round(size)));
}

/** Settings read back from storage: what is sound is kept, the rest is the default. */
export function readBrush(value: unknown): BrushSettings {
  const given = (value && typeof value === 'object' ? value : {}) as Partial<BrushSettings>;
  const tool: Tool =
    given.tool === 'eraser' || given.tool === 'hand' || given.tool === 'brush'
      ? given.tool
      : DEFAULT_BRUSH.tool;
  return {
    tool,
    size: typeof given.size === 'number' ? clampSize(given.size) : DEFAULT_BRUSH.size,
  };
}

export interface Point {
  x: number;
  y: number;
}

/**
 * The whole pixels a segment from `a` to `b` of a round brush of `size` touches (with a pixel
 * to spare for its soft edge), inside a picture of `width`×`height`; null when none.
 */
export function segmentRect(
  a: Point,
  b: Point,
  size: number,
  width: number,
  height: number,
): Rect | null {
  const r = size / 2 + 1;
  const x0 = Math.max(0, Math.floor(Math.min(a.x, b.x) - r));
  const y0 = Math.max(0, Math.floor(Math.min(a.y, b.y) - r));
  const x1 = Math.min(width, Math.ceil(Math.max(a.x, b.x) + r));
  const y1 = Math.min(height, Math.ceil(Math.max(a.y, b.y) + r));
  if (x1 <= x0 || y1 <= y0) return null;
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** The smallest rectangle holding both (either may be null). */
export function unionRect(a: Rect | null, b: Rect | null): Rect | null {
  if (!a) return b;
  if (!b) return a;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
  };
}
