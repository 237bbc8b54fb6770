/**
 * Decoded thumbnails, the most recent few hundred, drawn into canvases by the tiles. An <img>
 * per tile made Chromium keep the encoded and decoded bytes of every thumbnail ever shown (882
 * MB after scrolling through 100,000); bitmaps closed on eviction keep the page's memory flat.
 */
const KEEP = 300;
const bitmaps = new Map<string, ImageBitmap>();

/** A fetch under way and how many tiles still wait for it: the last to leave aborts it. */
interface Loading {
  bitmap: Promise<ImageBitmap>;
  waiting: number;
  abort: AbortController;
}
const loading = new Map<string, Loading>();

/**
 * The decoded thumbnail at `url`, from memory or fetched once however many tiles ask. A tile
 * that leaves (scrolled away, a new search) aborts with `signal`; when no tile waits any more
 * the fetch stops, as an <img> removed from the page would, so it does not hold a connection
 * the new screen's thumbnails need.
 */
export function thumbBitmap(url: string, signal: AbortSignal): Promise<ImageBitmap> {
  const kept = bitmaps.get(url);
  if (kept) {
    // most recently used last: eviction takes the first
    bitmaps.delete(url);
    bitmaps.set(url, kept);
    return Promise.resolve(kept);
  }
  let entry = loading.get(url);
  if (!entry) {
    const abort = new AbortController();
    const bitmap = fetch(url, { signal: abort.signal })
      .then((response) => {
        if (!response.ok) throw new Error(`The thumbnail answered ${response.status}.`);
        return response.blob();
      })
      .then((blob) => createImageBitmap(blob))
      .then((decoded) => {
        bitmaps.set(url, decoded);
        evict();
        return decoded;
      })
      .finally(() => loading.delete(url));
    entry = { bitmap, waiting: 0, abort };
    loading.set(url, entry);
  }
  const mine = entry;
  mine.waiting++;
  signal.addEventListener(
    'abort',
    () => {
      if (--mine.waiting === 0 && loading.get(url) === mine) {
        loading.delete(url);
        mine.abort.abort();
      }
    },
    { once: true },
  );
  return mine.bitmap;
}

function evict(): void {
  for (const [url, bitmap] of bitmaps) {
    if (bitmaps.size <= KEEP) return;
    bitmaps.delete(url);
    bitmap.close();
  }
}

/** Draws the bitmap over the whole canvas, cropped to fill it (as object-fit: cover). */
export function drawCover(canvas: HTMLCanvasElement, bitmap: ImageBitmap, size: number): boolean {
  const pixels = Math.max(1, Math.round(size * (window.devicePixelRatio || 1)));
  if (canvas.width !== pixels || canvas.height !== pixels) {
    canvas.width = pixels;
    canvas.height = pixels;
  }
  const context = canvas.getContext('2d');
  if (!context || bitmap.width === 0) return false; // closed meanwhile, or no 2D here
  const scale = Math.max(pixels / bitmap.width, pixels / bitmap.height);
  const width = bitmap.width * scale;
  const height = bitmap.height * scale;
  context.drawImage(bitmap, (pixels - width) / 2, (pixels - height) / 2, width, height);
  return true;
}
