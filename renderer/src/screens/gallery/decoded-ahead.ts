import { mediaVersion, type MediaOwner } from '../../../../shared/api/media-version.ts';

/** A bitmap decoded ahead and not drawn by then is let go (its tile never came). */
const LINGER_MS = 10_000;

interface Ahead {
  decoding: Promise<ImageBitmap>;
  bitmap: ImageBitmap | null;
  /** taken by its tile (which closes it), or let go (closed here) */
  state: 'waiting' | 'taken' | 'gone';
}

const ahead = new Map<string, Ahead>();
/** The decodes not finished yet, taken or not. */
const decoding = new Set<Promise<unknown>>();
const keyOf = (relPath: string, owner: MediaOwner) => `${mediaVersion(owner)}\n${relPath}`;

/**
 * Decodes a thumbnail as its bytes come, before its tile is rendered (off the page's thread),
 * so the tile draws it in the commit that shows it: the first screen's tiles and pictures
 * appear in one frame, not tiles first and pictures after the decodes their effects start.
 * Settles (never fails) once decoded or failed.
 */
export function decodeAhead(
  relPath: string,
  owner: MediaOwner,
  bytes: Promise<Blob>,
): Promise<unknown> {
  const key = keyOf(relPath, owner);
  const started = ahead.get(key);
  if (started) return started.decoding.catch(() => undefined);
  const entry: Ahead = {
    decoding: bytes.then((blob) => createImageBitmap(blob)),
    bitmap: null,
    state: 'waiting',
  };
  ahead.set(key, entry);
  const settled = entry.decoding.catch(() => undefined);
  decoding.add(settled);
  void settled.then(() => decoding.delete(settled));
  entry.decoding.then(
    (bitmap) => {
      if (entry.state === 'gone') bitmap.close();
      else entry.bitmap = bitmap;
    },
    () => letGo(key, entry), // the tile asks again, and falls back as it does
  );
  setTimeout(() => letGo(key, entry), LINGER_MS);
  return settled;
}

/**
 * The thumbnail decoded ahead for this tile (once: the tile owns it then): the bitmap when it
 * is ready, else its decoding; null when none was started.
 */
export function takeDecoded(
  relPath: string,
  owner: MediaOwner,
): { bitmap: ImageBitmap } | { decoding: Promise<ImageBitmap> } | null {
  const key = keyOf(relPath, owner);
  const entry = ahead.get(key);
  if (!entry) return null;
  ahead.delete(key);
  entry.state = 'taken';
  return entry.bitmap ? { bitmap: entry.bitmap } : { decoding: entry.decoding };
}

/** The bitmap decoded ahead for this tile if it is ready (the tile owns it then), else null. */
export function takeReady(relPath: string, owner: MediaOwner): ImageBitmap | null {
  const key = keyOf(relPath, owner);
  if (!ahead.get(key)?.bitmap) return null;
  const taken = takeDecoded(relPath, owner);
  return taken && 'bitmap' in taken ? taken.bitmap : null;
}

/** Settles once every decode started so far has finished (or failed). */
export function decodesSettled(): Promise<unknown> {
  return Promise.all(decoding);
}

function letGo(key: string, entry: Ahead): void {
  if (ahead.get(key) === entry) ahead.delete(key);
  if (entry.state !== 'waiting') return;
  entry.state = 'gone';
  entry.bitmap?.close();
}
