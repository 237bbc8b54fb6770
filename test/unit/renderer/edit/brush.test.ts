import { describe, expect, it } from 'vitest';
import {
  BRUSH_SIZES,
  DEFAULT_BRUSH,
  readBrush,
  segmentRect,
  stepSize,
  unionRect,
} from '../../../../renderer/src/screens/edit/brush.ts';

describe('the brush', () => {
  it('steps its size by about a sixth, at least a pixel, within its limits', () => {
    expect(stepSize(64, 1)).toBe(74);
    expect(stepSize(64, -1)).toBe(54);
    expect(stepSize(3, 1)).toBe(4);
    expect(stepSize(BRUSH_SIZES.min, -1)).toBe(BRUSH_SIZES.min);
    expect(stepSize(BRUSH_SIZES.max, 1)).toBe(BRUSH_SIZES.max);
  });

  it('reads remembered settings, keeping only what is sound', () => {
    expect(readBrush({ tool: 'eraser', size: 120 })).toEqual({ tool: 'eraser', size: 120 });
    expect(readBrush({ tool: 'lasso', size: 1e9 })).toEqual({
      tool: 'brush',
      size: BRUSH_SIZES.max,
    });
    expect(readBrush(null)).toEqual(DEFAULT_BRUSH);
    expect(readBrush('x')).toEqual(DEFAULT_BRUSH);
  });

  it('knows the pixels a segment touches, inside the picture', () => {
    expect(segmentRect({ x: 10, y: 10 }, { x: 20, y: 10 }, 4, 100, 100)).toEqual({
      x: 7,
      y: 7,
      width: 16,
      height: 6,
    });
    // cut at the picture's edges; nothing when it is all outside
    expect(segmentRect({ x: 1, y: 1 }, { x: 1, y: 1 }, 10, 100, 100)).toEqual({
      x: 0,
      y: 0,
      width: 7,
      height: 7,
    });
    expect(segmentRect({ x: -50, y: -50 }, { x: -40, y: -50 }, 4, 100, 100)).toBeNull();
    expect(
      unionRect({ x: 0, y: 0, width: 2, height: 2 }, { x: 5, y: 1, width: 1, height: 4 }),
    ).toEqual({ x: 0, y: 0, width: 6, height: 5 });
    expect(unionRect(null, { x: 1, y: 1, width: 1, height: 1 })).toEqual({
      x: 1,
      y: 1,
      width: 1,
      height: 1,
    });
  });
});
