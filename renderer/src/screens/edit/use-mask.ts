import { useEffect, useState, useSyncExternalStore } from 'react';
import type { Size } from '../gallery/lightbox/zoom-pan.ts';
import { editUi } from './edit-state.ts';
import { MaskLayer } from './mask-layer.ts';

/** How long painting must pause before the mask is encoded for the checks. */
const MASK_DELAY_MS = 300;

/** The mask as the contract takes it: base64 PNG, or null when nothing is painted. */
export interface EncodedMask {
  layer: MaskLayer;
  version: number;
  png: string | null;
  /** Share of the picture that may change, 0 to 1. */
  share: number;
}

/**
 * The mask layer for a picture of this natural size: the one kept from the last time this
 * picture was edited, or a new one (the kept one is let go).
 */
export function useMaskLayer(imageId: number | undefined, natural: Size | null): MaskLayer | null {
  const store = editUi.useStoreApi();
  const [layer, setLayer] = useState<MaskLayer | null>(null);
  const width = natural?.width ?? 0;
  const height = natural?.height ?? 0;
  useEffect(() => {
    if (imageId === undefined || width === 0 || height === 0) return;
    const key = `${imageId}:${width}x${height}`;
    const kept = store.getState().kept;
    if (kept?.key === key) return setLayer(kept.layer);
    const made = new MaskLayer(width, height);
    store.getState().keep({ key, layer: made });
    setLayer(made);
  }, [imageId, width, height, store]);
  return layer;
}

/** The layer's version: a new one after each stroke, undo, load… (none during a stroke). */
export function useMaskVersion(layer: MaskLayer | null): number {
  return useSyncExternalStore(layer?.subscribe ?? noSubscription, layer?.getVersion ?? zero);
}
const noSubscription = () => () => undefined;
const zero = () => 0;

/** Encodes the layer as the contract's mask (its export, as base64). */
export async function encodeMask(layer: MaskLayer): Promise<EncodedMask> {
  const made = await layer.export();
  return {
    layer,
    version: made.version,
    png: made.painted > 0 ? await base64Of(made.png) : null,
    share: made.painted / made.total,
  };
}

/**
 * The mask encoded for the checks once painting pauses; null while the newest strokes are not
 * in it yet (Run encodes at once instead of waiting).
 */
export function useEncodedMask(layer: MaskLayer | null, version: number): EncodedMask | null {
  const [encoded, setEncoded] = useState<EncodedMask | null>(null);
  useEffect(() => {
    if (!layer) return;
    let current = true;
    const timer = setTimeout(
      () => {
        encodeMask(layer).then(
          (made) => current && setEncoded(made),
          // (the canvas could not be read or encoded: Run tries again and says why)
          () => undefined,
        );
        // (a new layer has nothing to wait for)
      },
      version === 0 ? 0 : MASK_DELAY_MS,
    );
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [layer, version]);
  return encoded && encoded.layer === layer && encoded.version === version ? encoded : null;
}

/** A Blob as base64 (the browser's own encoder: a mask of hundreds of kilobytes at once). */
export function base64Of(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('the mask could not be read'));
    reader.readAsDataURL(blob);
  });
}
