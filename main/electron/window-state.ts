import { z } from 'zod';

const Rect = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
});
export type Rect = z.infer<typeof Rect>;

export const WindowStateSchema = z.object({ bounds: Rect, maximized: z.boolean() });
export type WindowState = z.infer<typeof WindowStateSchema>;

/** Where the window's place is remembered between runs. */
export interface WindowStateStore {
  /** The last saved state, or null when none was saved (or it could not be read). */
  load(): WindowState | null;
  save(state: WindowState): void;
}

/** How much of a window must show on a display to count as on it: enough to grab and move. */
export const MIN_VISIBLE = { width: 100, height: 50 };

/** Whether at least MIN_VISIBLE of `bounds` lies inside `area` (a display's work area). */
export function isVisibleOn(bounds: Rect, area: Rect): boolean {
  const width = Math.min(bounds.x + bounds.width, area.x + area.width) - Math.max(bounds.x, area.x);
  const height =
    Math.min(bounds.y + bounds.height, area.y + area.height) - Math.max(bounds.y, area.y);
  return width >= MIN_VISIBLE.width && height >= MIN_VISIBLE.height;
}

/**
 * The saved bounds if they still show on the display that matches them best, else null (the
 * monitor they were on is unplugged or smaller now: the window opens at its default place).
 */
export function restorableBounds(
  saved: WindowState | null,
  displayMatching: (bounds: Rect) => { workArea: Rect },
): Rect | null {
  if (!saved) return null;
  return isVisibleOn(saved.bounds, displayMatching(saved.bounds).workArea) ? saved.bounds : null;
}
