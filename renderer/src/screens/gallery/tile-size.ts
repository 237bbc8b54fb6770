/** The tiles' sizes the toolbar's slider offers, px. */
export const TILE_SIZES = { min: 96, max: 360, step: 8 } as const;

const TILE_KEY = 'atelier.gallery.tile';
const DEFAULT_TILE = 176;

/** The tiles' size the person chose last (kept in this browser), else the default. */
export function storedTileSize(): number {
  const stored = Number(localStorage.getItem(TILE_KEY));
  return stored >= TILE_SIZES.min && stored <= TILE_SIZES.max ? stored : DEFAULT_TILE;
}

export function saveTileSize(size: number): void {
  localStorage.setItem(TILE_KEY, String(size));
}
