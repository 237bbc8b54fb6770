import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { MediaOwner } from '../../api/client.ts';
import { useClient } from '../../api/client-context.ts';
import { takeDecoded, takeReady } from './decoded-ahead.ts';
import { DRAWS_BITMAPS } from './first-thumbnails.ts';

/**
 * A tile's thumbnail, drawn into a canvas from a decoded bitmap that is let go when the tile
 * leaves the screen. An <img> per thumbnail would leave the page's image caches holding every
 * one it ever showed: 20,000 of them grew a bare page's renderer to 662 MB, drawn this way it
 * stays near 160 MB (`npm run bench:thumbnails`, docs/performance.md). The bytes come in bundles (client.thumbnail); a thumbnail the bundle
 * does not carry falls back to the one-thumbnail route as an <img>, which makes it. One decoded
 * ahead and ready is drawn as the tile is committed, so it shows in the tile's first frame.
 */
export function TileThumbnail({ relPath, owner }: { relPath: string; owner: MediaOwner }) {
  const { mediaUrl, thumbnail } = useClient();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [asImage, setAsImage] = useState(!DRAWS_BITMAPS);
  const { id, createdAt } = owner;
  // what the canvas shows: each effect clears only its own drawing
  const drawing = useRef<object | null>(null);
  // a picture decoded ahead: drawn before the tile is first painted
  useLayoutEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('bitmaprenderer');
    const bitmap = context ? takeReady(relPath, { id, createdAt }) : null;
    if (!canvas || !context || !bitmap) return;
    const mine = draw(canvas, context, bitmap, relPath, drawing);
    return () => clear(canvas, context, mine, drawing);
  }, [relPath, id, createdAt]);
  // else once the tile is painted: its bytes (a decode begun ahead, or the bundle's), decoded
  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('bitmaprenderer');
    if (!canvas || !context) {
      setAsImage(true);
      return;
    }
    if (drawing.current) return; // drawn as it was committed
    let shown = true;
    let mine: object | null = null;
    const owner = { id, createdAt };
    const ahead = takeDecoded(relPath, owner);
    const decoding = !ahead
      ? thumbnail(relPath, owner).then((bytes) => (shown ? createImageBitmap(bytes) : null))
      : 'bitmap' in ahead
        ? Promise.resolve(ahead.bitmap)
        : ahead.decoding;
    decoding
      .then((bitmap) => {
        if (!bitmap) return;
        if (!shown) return bitmap.close();
        mine = draw(canvas, context, bitmap, relPath, drawing);
      })
      .catch(() => {
        if (shown) setAsImage(true);
      });
    return () => {
      shown = false;
      if (mine) clear(canvas, context, mine, drawing);
    };
  }, [relPath, id, createdAt, thumbnail]);
  if (asImage) {
    return (
      <img
        className="tile-media"
        src={mediaUrl(relPath, 'thumb', owner)}
        alt=""
        decoding="async"
        draggable={false}
      />
    );
  }
  return <canvas ref={canvasRef} className="tile-media" aria-hidden />;
}

/** Draws the bitmap into the canvas; returns this drawing's token. */
function draw(
  canvas: HTMLCanvasElement,
  context: ImageBitmapRenderingContext,
  bitmap: ImageBitmap,
  relPath: string,
  drawing: { current: object | null },
): object {
  // the canvas takes the bitmap's size, so object-fit crops it as it would an image
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  context.transferFromImageBitmap(bitmap);
  // the benchmark and the tests read which thumbnail a tile shows from here
  canvas.dataset['thumb'] = relPath;
  drawing.current = {};
  return drawing.current;
}

/** Lets the bitmap go, if the canvas still shows this drawing. */
function clear(
  canvas: HTMLCanvasElement,
  context: ImageBitmapRenderingContext,
  mine: object,
  drawing: { current: object | null },
): void {
  if (drawing.current !== mine) return;
  drawing.current = null;
  context.transferFromImageBitmap(null);
  delete canvas.dataset['thumb'];
}
