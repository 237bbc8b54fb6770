import type { Client } from '../../api/client.ts';
import { settleWithin } from '../../data/settle-within.ts';
import type { ImageSummary } from '../../data/types.ts';
import { decodeAhead, decodesSettled } from './decoded-ahead.ts';
import { columnsFor } from './grid-layout.ts';
import { storedTileSize } from './tile-size.ts';
import { GAP, OVERSCAN } from './use-grid-layout.ts';

/** Every current browser and Electron; not jsdom, whose tiles keep the plain image. */
export const DRAWS_BITMAPS =
  typeof createImageBitmap === 'function' && typeof ImageBitmapRenderingContext === 'function';

/** The thumbnail a tile draws for this image, or null (not written, a video, thumbnails off). */
export function tileThumbnailPath(image: ImageSummary): string | null {
  if (image.downloadState !== 'done' || !image.relPath || image.kind === 'video') return null;
  return image.thumbRelPath ?? null;
}

let markShown: () => void = () => undefined;

/**
 * Settles once the window's first grid has committed its first tiles and the thumbnails
 * decoded ahead for them are drawn (or failed): the window's opening gallery is shown.
 */
export const firstScreenShown = new Promise<void>((resolve) => (markShown = resolve));

/** Told by the grid once its tiles (or its empty state) are committed. */
export function gridShown(): void {
  // once they are drawn and painted (a timer set in a frame's callback runs after its paint)
  void decodesSettled().then(() => requestAnimationFrame(() => setTimeout(markShown)));
}

/** A grid's top screen: the tiles its first render shows (overscan rows included), in view. */
export interface FirstScreen {
  tiles: number;
  inView: number;
  /** tiles in a row */
  perRow: number;
}

/** What the grid last said its top screen holds. */
let gridScreen: FirstScreen | null = null;

/** Told by the grid as its size or tiles change: the next list's first screen is that large. */
export function rememberFirstScreen(screen: FirstScreen): void {
  gridScreen = screen;
}

/**
 * At most how many tiles the grid's first render shows, and shows in view: what the grid said,
 * else (no grid yet) the window's whole width and height in tiles of the chosen size (the grid
 * has less of both), so the tiles never ask for one the first bundle did not carry.
 */
export function firstScreenTiles(
  win: { innerWidth: number; innerHeight: number } = window,
  tile = storedTileSize(),
): FirstScreen {
  if (gridScreen !== null) return gridScreen;
  const cols = columnsFor(win.innerWidth, tile, GAP);
  const rows = Math.ceil(win.innerHeight / (tile + GAP));
  return { tiles: cols * (rows + OVERSCAN), inView: cols * rows, perRow: cols };
}

/** The opening list waits at most this long for its first thumbnails before it shows its tiles. */
const FIRST_DRAW_WAIT_MS = 250;

/**
 * Asks for a new list's first screen of thumbnails as soon as its details are in, before
 * React has rendered a tile: their bundle leaves with the answer instead of after the grid's
 * render (30–100 ms on the development machine), and those in view are decoded as they come,
 * so their tiles draw them in the commit that shows them (decoded-ahead.ts). Settles once
 * the top row's are decoded (FIRST_DRAW_WAIT_MS at most): the window's opening list shows its
 * tiles then, since rendered before, its tiles' render and the frame's held the page's thread,
 * and the decodes, which need it to start and to finish, waited: 100 ms of bare tiles. Null
 * where tiles draw no bitmaps (a test's DOM): there, each tile loads its own.
 */
export function firstThumbnails(
  client: Pick<Client, 'thumbnail'>,
  screen: () => FirstScreen = firstScreenTiles,
  drawsBitmaps = DRAWS_BITMAPS,
  decode: typeof decodeAhead = decodeAhead,
  waitMs = FIRST_DRAW_WAIT_MS,
): ((images: readonly ImageSummary[]) => Promise<unknown>) | null {
  if (!drawsBitmaps) return null;
  return (images) => {
    const { tiles, inView, perRow } = screen();
    const decoded: Array<Promise<unknown>> = [];
    images.slice(0, tiles).forEach((image, at) => {
      const path = tileThumbnailPath(image);
      if (!path) return;
      // a thumbnail not made yet: its tile falls back to its own route when it asks
      const bytes = client.thumbnail(path, image);
      if (at < inView) decoded.push(decode(path, image, bytes));
      else bytes.catch(() => undefined);
    });
    // the top row's: waiting for every one in view kept them all bare while the last decoded
    return settleWithin(Promise.all(decoded.slice(0, perRow)), waitMs);
  };
}
