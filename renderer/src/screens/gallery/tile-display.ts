import { useState } from 'react';

/** How tiles show their pictures: cropped to squares, or whole (as made: 768×512 stays 3:2). */
export type TileShape = 'square' | 'whole';

export interface TileDisplay {
  shape: TileShape;
  /** Each tile's prompt and model below it. */
  captions: boolean;
}

const KEY = 'atelier.gallery.display';
export const DEFAULT_DISPLAY: TileDisplay = { shape: 'square', captions: false };

/** A stored display read back: each field of the right kind, or the default's. */
export function displayFrom(text: string | null): TileDisplay {
  let saved: Partial<Record<keyof TileDisplay, unknown>> = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : null;
    if (parsed && typeof parsed === 'object') saved = parsed;
  } catch {
    // a damaged value: the default
  }
  return {
    shape: saved.shape === 'whole' ? 'whole' : 'square',
    captions: saved.captions === true,
  };
}

/** The tiles' display, kept in this window's storage like the thumbnail size. */
export function useTileDisplay(): [TileDisplay, (patch: Partial<TileDisplay>) => void] {
  const [display, setDisplay] = useState(() => displayFrom(localStorage.getItem(KEY)));
  return [
    display,
    (patch) => {
      const next = { ...display, ...patch };
      setDisplay(next);
      localStorage.setItem(KEY, JSON.stringify(next));
    },
  ];
}

/**
 * The box a whole picture takes in a square cell of `cell` px: its longer side fills the cell,
 * the other keeps the picture's proportions. Unknown dimensions: the whole cell.
 */
export function pictureBox(
  width: number | null,
  height: number | null,
  cell: number,
): { width: number; height: number } {
  if (!width || !height || width <= 0 || height <= 0) return { width: cell, height: cell };
  return width >= height
    ? { width: cell, height: Math.max(1, Math.round((cell * height) / width)) }
    : { width: Math.max(1, Math.round((cell * width) / height)), height: cell };
}
