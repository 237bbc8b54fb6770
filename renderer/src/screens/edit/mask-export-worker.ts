import { hardMask } from './mask-pixels.ts';

/**
 * The mask's export off the window's thread: the layer's pixels (a bitmap, transferred) read,
 * cut hard and encoded as a PNG here, so a 4096² mask (16 million pixels, a second or more of
 * work) never holds up a stroke. What mask-layer.ts asks and gets back:
 */
export interface ExportAsk {
  id: number;
  width: number;
  height: number;
  /** The painted layer; null when it is surely empty (all kept). */
  bitmap: ImageBitmap | null;
}
export type ExportAnswer =
  { id: number; ok: true; png: Blob; painted: number } | { id: number; ok: false; message: string };

// (typed by hand: the renderer's types are the window's, not a worker's)
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ExportAsk>) => void) | null;
  postMessage(answer: ExportAnswer): void;
};

scope.onmessage = (event) => {
  const { id, width, height, bitmap } = event.data;
  exportMask(width, height, bitmap).then(
    ({ png, painted }) => scope.postMessage({ id, ok: true, png, painted }),
    (error: unknown) =>
      scope.postMessage({
        id,
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      }),
  );
};

async function exportMask(width: number, height: number, bitmap: ImageBitmap | null) {
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new Error('this browser cannot draw off the window');
  const out = new ImageData(width, height);
  let painted = 0;
  if (bitmap) {
    ctx.drawImage(bitmap, 0, 0);
    bitmap.close();
    painted = hardMask(ctx.getImageData(0, 0, width, height).data, out.data);
  } else {
    for (let i = 3; i < out.data.length; i += 4) out.data[i] = 255; // all kept
  }
  ctx.putImageData(out, 0, 0);
  return { png: await canvas.convertToBlob({ type: 'image/png' }), painted };
}
