/**
 * Zoom and pan of an image in a viewport, pure so it is tested without a browser. The state is
 * relative (a multiple of "fit" and the image point at the viewport's centre, as fractions), so
 * it survives a resize and one state drives several panes of different sizes (compare).
 */
export interface Size {
  width: number;
  height: number;
}
export interface Point {
  x: number;
  y: number;
}
/** Where the image is drawn: its top-left corner in the viewport, and its scale. */
export interface Transform {
  scale: number;
  x: number;
  y: number;
}
/** `zoom` is a multiple of the fit scale; (cx, cy) the image point at the viewport's centre. */
export interface ViewState {
  zoom: number;
  cx: number;
  cy: number;
}

export const FIT: ViewState = { zoom: 1, cx: 0.5, cy: 0.5 };
/** The most a picture is enlarged (unless fitting needs more). */
export const MAX_SCALE = 8;
/** One press of + or −. */
export const ZOOM_STEP = 1.25;
/** The stage shown round a fitted picture at each side, so it never runs into the edges. */
export const FIT_MARGIN = 24;

const usable = (s: Size) => s.width > 0 && s.height > 0;

/** A side's margin: FIT_MARGIN, less in a small viewport (never more than a tenth of it). */
const marginOf = (side: number) => Math.min(FIT_MARGIN, side / 10);

/** The scale that shows the whole image as large as the viewport allows, inside the margin. */
export function fitScale(image: Size, viewport: Size): number {
  if (!usable(image) || !usable(viewport)) return 1;
  const width = viewport.width - 2 * marginOf(viewport.width);
  const height = viewport.height - 2 * marginOf(viewport.height);
  return Math.min(width / image.width, height / image.height);
}

/** Never smaller than fit (or than 1:1 for a small image); never beyond MAX_SCALE. */
export function scaleLimits(image: Size, viewport: Size): { min: number; max: number } {
  const fit = fitScale(image, viewport);
  return { min: Math.min(fit, 1), max: Math.max(MAX_SCALE, fit) };
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** One axis: centred when the image is narrower than the viewport, else no gap at either edge. */
function clampAxis(pos: number, drawn: number, room: number): number {
  return drawn <= room ? (room - drawn) / 2 : clamp(pos, room - drawn, 0);
}

/** The transform with its scale in limits and the image kept over the viewport. */
export function clampTransform(t: Transform, image: Size, viewport: Size): Transform {
  const { min, max } = scaleLimits(image, viewport);
  const scale = clamp(t.scale, min, max);
  return {
    scale,
    x: clampAxis(t.x, image.width * scale, viewport.width),
    y: clampAxis(t.y, image.height * scale, viewport.height),
  };
}

export function transformOf(state: ViewState, image: Size, viewport: Size): Transform {
  if (!usable(image) || !usable(viewport)) return { scale: 1, x: 0, y: 0 };
  const scale = state.zoom * fitScale(image, viewport);
  const t = {
    scale,
    x: viewport.width / 2 - state.cx * image.width * scale,
    y: viewport.height / 2 - state.cy * image.height * scale,
  };
  return clampTransform(t, image, viewport);
}

export function stateOf(t: Transform, image: Size, viewport: Size): ViewState {
  if (!usable(image) || !usable(viewport)) return FIT;
  const c = clampTransform(t, image, viewport);
  return {
    zoom: c.scale / fitScale(image, viewport),
    cx: (viewport.width / 2 - c.x) / (image.width * c.scale),
    cy: (viewport.height / 2 - c.y) / (image.height * c.scale),
  };
}

/** Zooms to `scale` keeping the image point under `at` (viewport coordinates) where it is. */
export function zoomTo(
  state: ViewState,
  scale: number,
  at: Point,
  image: Size,
  viewport: Size,
): ViewState {
  const t = transformOf(state, image, viewport);
  const { min, max } = scaleLimits(image, viewport);
  const next = clamp(scale, min, max);
  const ratio = next / t.scale;
  return stateOf(
    { scale: next, x: at.x - (at.x - t.x) * ratio, y: at.y - (at.y - t.y) * ratio },
    image,
    viewport,
  );
}

/** Multiplies the scale by `factor` around `at` (the cursor; the centre for keys). */
export function zoomAt(
  state: ViewState,
  factor: number,
  at: Point,
  image: Size,
  viewport: Size,
): ViewState {
  const t = transformOf(state, image, viewport);
  return zoomTo(state, t.scale * factor, at, image, viewport);
}

/** Moves the image by (dx, dy) screen pixels, never past its edges. */
export function panBy(
  state: ViewState,
  dx: number,
  dy: number,
  image: Size,
  viewport: Size,
): ViewState {
  const t = transformOf(state, image, viewport);
  return stateOf({ ...t, x: t.x + dx, y: t.y + dy }, image, viewport);
}

export function isFit(state: ViewState): boolean {
  return Math.abs(state.zoom - 1) < 1e-6;
}

/** Double-click: from fit to 1:1 at the point (2× when fit already is 1:1), else back to fit. */
export function toggleFit(state: ViewState, at: Point, image: Size, viewport: Size): ViewState {
  if (!isFit(state)) return FIT;
  const fit = fitScale(image, viewport);
  return zoomTo(state, Math.abs(fit - 1) < 1e-6 ? 2 : 1, at, image, viewport);
}

/** The centre of a viewport: where keyboard zoom happens. */
export const centreOf = (viewport: Size): Point => ({
  x: viewport.width / 2,
  y: viewport.height / 2,
});

/** A wheel's delta (pixels, lines or pages) as a zoom factor: smooth, ~10% per notch. */
export function wheelFactor(deltaY: number, deltaMode: number): number {
  const pixels = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 400 : deltaY;
  return Math.exp(-clamp(pixels, -300, 300) * 0.0015);
}
