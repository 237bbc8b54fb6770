import { describe, expect, it } from 'vitest';
import {
  FIT,
  FIT_MARGIN,
  MAX_SCALE,
  fitScale,
  isFit,
  panBy,
  stateOf,
  toggleFit,
  transformOf,
  wheelFactor,
  zoomAt,
  zoomTo,
} from '../../../renderer/src/screens/gallery/lightbox/zoom-pan.ts';

const image = { width: 2000, height: 1000 };
// 1000×800 inside the margin at each side
const viewport = { width: 1000 + 2 * FIT_MARGIN, height: 800 + 2 * FIT_MARGIN };

describe('zoom and pan', () => {
  it('fits the whole image, centred, with the margin round it', () => {
    expect(FIT_MARGIN).toBeGreaterThan(0);
    expect(fitScale(image, viewport)).toBe(0.5);
    expect(transformOf(FIT, image, viewport)).toEqual({ scale: 0.5, x: FIT_MARGIN, y: 174 });
  });

  it('keeps the margin at the tight sides of a tall image too', () => {
    const tall = { width: 400, height: 1600 };
    const t = transformOf(FIT, tall, viewport);
    expect(t.y).toBe(FIT_MARGIN);
    expect(t.y + tall.height * t.scale).toBe(viewport.height - FIT_MARGIN);
  });

  it('shrinks the margin in a small viewport, to a tenth of each side', () => {
    const tiny = { width: 100, height: 80 };
    expect(fitScale({ width: 80, height: 64 }, tiny)).toBeCloseTo(1);
    expect(transformOf(FIT, { width: 80, height: 64 }, tiny).x).toBeCloseTo(10);
  });

  it('keeps the image point under the cursor while zooming', () => {
    const at = { x: 250, y: 400 };
    const before = transformOf(FIT, image, viewport);
    const imagePoint = { x: (at.x - before.x) / before.scale, y: (at.y - before.y) / before.scale };
    const after = transformOf(zoomAt(FIT, 2, at, image, viewport), image, viewport);
    expect(after.scale).toBe(1);
    expect(after.x + imagePoint.x * after.scale).toBeCloseTo(at.x);
    expect(after.y + imagePoint.y * after.scale).toBeCloseTo(at.y);
  });

  it('clamps the scale between fit and the maximum', () => {
    const out = zoomAt(FIT, 0.1, { x: 0, y: 0 }, image, viewport);
    expect(transformOf(out, image, viewport).scale).toBe(0.5);
    const deep = zoomTo(FIT, 100, { x: 524, y: 424 }, image, viewport);
    expect(transformOf(deep, image, viewport).scale).toBe(MAX_SCALE);
  });

  it('lets a small image zoom out to 1:1 but not past it', () => {
    const small = { width: 100, height: 100 };
    expect(fitScale(small, viewport)).toBe(8);
    const out = zoomTo(FIT, 0.2, { x: 0, y: 0 }, small, viewport);
    expect(transformOf(out, small, viewport)).toEqual({ scale: 1, x: 474, y: 374 });
  });

  it('pans only as far as the image reaches', () => {
    const one = zoomTo(FIT, 1, { x: 500, y: 400 }, image, viewport);
    const right = transformOf(panBy(one, 10_000, 0, image, viewport), image, viewport);
    expect(right.x).toBe(0);
    const left = transformOf(panBy(one, -10_000, -10_000, image, viewport), image, viewport);
    // zoomed past the viewport, the picture fills it: no margin at the edge it reaches
    expect(left).toEqual({ scale: 1, x: 1048 - 2000, y: 848 - 1000 });
    const moved = transformOf(panBy(one, 30, -20, image, viewport), image, viewport);
    const start = transformOf(one, image, viewport);
    expect(moved.x - start.x).toBeCloseTo(30);
    expect(moved.y - start.y).toBeCloseTo(-20);
  });

  it('does not pan an image that fits', () => {
    expect(transformOf(panBy(FIT, 100, 100, image, viewport), image, viewport)).toEqual(
      transformOf(FIT, image, viewport),
    );
  });

  it('toggles between fit and 1:1 at the point, and back', () => {
    const at = { x: 900, y: 400 };
    const actual = toggleFit(FIT, at, image, viewport);
    expect(transformOf(actual, image, viewport).scale).toBe(1);
    expect(isFit(actual)).toBe(false);
    expect(toggleFit(actual, at, image, viewport)).toEqual(FIT);
    const exact = { width: 1000, height: 800 }; // fits at exactly 1:1 inside the margin
    expect(transformOf(toggleFit(FIT, at, exact, viewport), exact, viewport).scale).toBe(2);
  });

  it('is relative, so one state drives panes of other sizes at the same image point', () => {
    const state = zoomAt(FIT, 3, { x: 100, y: 100 }, image, viewport);
    const half = { width: 500, height: 400 };
    const t = transformOf(state, image, half);
    expect(stateOf(t, image, half).cx).toBeCloseTo(state.cx);
    expect(stateOf(t, image, half).zoom).toBeCloseTo(state.zoom);
  });

  it('does nothing odd before sizes are known', () => {
    expect(transformOf(FIT, { width: 0, height: 0 }, viewport)).toEqual({ scale: 1, x: 0, y: 0 });
    expect(zoomAt(FIT, 2, { x: 1, y: 1 }, image, { width: 0, height: 0 })).toEqual(FIT);
  });

  it('turns wheel deltas into zoom factors, in and out', () => {
    expect(wheelFactor(-100, 0)).toBeGreaterThan(1);
    expect(wheelFactor(100, 0)).toBeLessThan(1);
    expect(wheelFactor(3, 1)).toBeCloseTo(wheelFactor(48, 0));
    expect(wheelFactor(1e9, 0)).toBe(wheelFactor(300, 0));
  });
});
