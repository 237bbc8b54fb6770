import { useLayoutEffect, useRef, useState } from 'react';
import type { MediaOwner } from '../../api/client.ts';
import { useClient } from '../../api/client-context.ts';
import { takeDecoded } from './decoded-ahead.ts';
import { DRAWS_BITMAPS } from './first-thumbnails.ts';

/**
 * A tile's thumbnail, drawn into a canvas from a decoded bitmap that is let go when the tile
 * leaves the screen. An <img> per thumbnail would leave the page's image caches holding every
 * one it ever showed: 20,000 of them grew a bare page's renderer to 662 MB, drawn this way it
 * stays near 160 MB (`npm run bench:thumbnails`, docs/performance.md). The bytes come in bundles (client.thumbnail); a thumbnail the bundle
 * does not carry falls back to the one-thumbnail route as an <img>, which makes it. Drawn as
 * the tile is committed (a layout effect): one decoded ahead shows in the tile's first frame.
 */
export function TileThumbnail({ relPath, owner }: { relPath: string; owner: MediaOwner }) {
  const { mediaUrl, thumbnail } = useClient();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [asImage, setAsImage] = useState(!DRAWS_BITMAPS);
  const { id, createdAt } = owner;
  useLayoutEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('bitmaprenderer');
    if (!canvas || !context) {
      setAsImage(true);
      return;
    }
    let shown = true;
    const draw = (bitmap: ImageBitmap) => {
      // the canvas takes the bitmap's size, so object-fit crops it as it would an image
      canvas.width = bitmap.width;
      canvas.height = bitmap.height;
      context.transferFromImageBitmap(bitmap);
      // the benchmark and the tests read which thumbnail a tile shows from here
      canvas.dataset['thumb'] = relPath;
    };
    const owner = { id, createdAt };
    const ahead = takeDecoded(relPath, owner);
    if (ahead && 'bitmap' in ahead) draw(ahead.bitmap);
    else {
      const decoding =
        ahead?.decoding ??
        thumbnail(relPath, owner).then((bytes) => (shown ? createImageBitmap(bytes) : null));
      decoding
        .then((bitmap) => {
          if (!bitmap) return;
          if (!shown) return bitmap.close();
          draw(bitmap);
        })
        .catch(() => {
          if (shown) setAsImage(true);
        });
    }
    return () => {
      shown = false;
      context.transferFromImageBitmap(null);
      delete canvas.dataset['thumb'];
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
