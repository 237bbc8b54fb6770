/**
 * Decoded thumbnails, the most recent few hundred, drawn into canvases by the tiles. An <img>
 * per tile made Chromium keep the encoded and decoded bytes of every thumbnail ever shown (882
 * MB after scrolling through 100,000); bitmaps closed on eviction keep the page's memory flat.
 */
const KEEP = 300;
const bitmaps = new Map<string, ImageBitmap>();
const loading = new Map<string, Promise<ImageBitmap>>();

/** The decoded thumbnail at `url`, from memory or fetched once however many tiles ask. */
export function thumbBitmap(url: string): Promise<ImageBitmap> {
  const kept = bitmaps.get(url);
  if (kept) {
    // most recently used last: eviction takes the first
    bitmaps.delete(url);
    bitmaps.set(url, kept);
    return Promise.resolve(kept);
  }
  let pending = loading.get(url);
  if (!pending) {
    pending = fetch(url)
      .then((response) => {
        if (!response.ok) throw new Error(`The thumbnail answered ${response.status}.`);
        return response.blob();
      })
      .then((blob) => createImageBitmap(blob))
      .then((bitmap) => {
        bitmaps.set(url, bitmap);
        evict();
        return bitmap;
      })
      .finally(() => loading.delete(url));
    loading.set(url, pending);
  }
  return pending;
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
