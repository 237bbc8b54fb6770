import type { Client } from '../../api/client.ts';
import type { ImageSummary } from '../../data/types.ts';
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

/** What the grid last said its top screen holds (tiles, overscan rows included). */
let gridScreen: number | null = null;

/** Told by the grid as its size or tiles change: the next list's first screen is that large. */
export function rememberFirstScreen(tiles: number): void {
  gridScreen = tiles;
}

/**
 * At most how many tiles the grid's first render shows, its overscan rows included: what the
 * grid said, else (no grid yet) the window's whole width and height in tiles of the chosen
 * size (the grid has less of both), so the tiles never ask for one the first bundle did not
 * carry.
 */
export function firstScreenTiles(
  win: { innerWidth: number; innerHeight: number } = window,
  tile = storedTileSize(),
): number {
  if (gridScreen !== null) return gridScreen;
  const cols = columnsFor(win.innerWidth, tile, GAP);
  return cols * (Math.ceil(win.innerHeight / (tile + GAP)) + OVERSCAN);
}

/**
 * Asks for a new list's first screen of thumbnails as soon as its details are in, before
 * React has rendered a tile: their bundle leaves with the answer instead of after the grid's
 * render (30–100 ms on the development machine), and the tiles then find the bytes in
 * flight or kept (the loader shares one request per thumbnail). Null where tiles draw no
 * bitmaps (a test's DOM): there, each tile loads its own.
 */
export function firstThumbnails(
  client: Pick<Client, 'thumbnail'>,
  screen: () => number = firstScreenTiles,
  drawsBitmaps = DRAWS_BITMAPS,
): ((images: readonly ImageSummary[]) => void) | null {
  if (!drawsBitmaps) return null;
  return (images) => {
    for (const image of images.slice(0, screen())) {
      const path = tileThumbnailPath(image);
      // a thumbnail not made yet: its tile falls back to its own route when it asks
      if (path) client.thumbnail(path, image).catch(() => undefined);
    }
  };
}
