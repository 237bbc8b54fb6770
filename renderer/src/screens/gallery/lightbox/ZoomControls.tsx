import { useCallback, useMemo, useRef, useState } from 'react';
import type { Geometry } from './ZoomView.tsx';
import {
  FIT,
  centreOf,
  isFit,
  transformOf,
  zoomAt,
  zoomTo,
  ZOOM_STEP,
  type ViewState,
} from './zoom-pan.ts';

export interface Zoom {
  state: ViewState;
  setState(state: ViewState): void;
  setGeometry(geometry: Geometry): void;
  /** The scale shown (1 = 1:1), from the last geometry. */
  scale: number;
  zoomIn(): void;
  zoomOut(): void;
  fit(): void;
  actualSize(): void;
  reset(): void;
}

const NO_GEOMETRY: Geometry = {
  image: { width: 0, height: 0 },
  viewport: { width: 0, height: 0 },
};

/** One zoom and pan, and the keys' and buttons' steps, which zoom at the viewport's centre. */
export function useZoom(): Zoom {
  const [state, setState] = useState<ViewState>(FIT);
  const [geometry, setGeometry] = useState<Geometry>(NO_GEOMETRY);
  const ref = useRef({ state, geometry });
  ref.current = { state, geometry };
  const step = useCallback((factor: number) => {
    const { state, geometry } = ref.current;
    const { image, viewport } = geometry;
    setState(zoomAt(state, factor, centreOf(viewport), image, viewport));
  }, []);
  const reset = useCallback(() => setState(FIT), []);
  const { image, viewport } = geometry;
  const scale = transformOf(state, image, viewport).scale;
  return useMemo(
    () => ({
      state,
      setState,
      setGeometry,
      scale,
      zoomIn: () => step(ZOOM_STEP),
      zoomOut: () => step(1 / ZOOM_STEP),
      fit: reset,
      actualSize: () => {
        const { state, geometry } = ref.current;
        const { image, viewport } = geometry;
        setState(zoomTo(state, 1, centreOf(viewport), image, viewport));
      },
      reset,
    }),
    [state, scale, step, reset],
  );
}

/** Zoom out, the percentage, zoom in, and fit or 1:1. */
export function ZoomControls({ zoom, disabled }: { zoom: Zoom; disabled?: boolean }) {
  const fitted = isFit(zoom.state);
  return (
    <>
      <button
        type="button"
        className="ghost lb-icon"
        aria-label="Zoom out"
        title="Zoom out (−)"
        disabled={disabled}
        onClick={zoom.zoomOut}
      >
        −
      </button>
      <output className="lb-zoom" aria-label="Zoom">
        {disabled ? '' : `${Math.round(zoom.scale * 100)}%`}
      </output>
      <button
        type="button"
        className="ghost lb-icon"
        aria-label="Zoom in"
        title="Zoom in (+)"
        disabled={disabled}
        onClick={zoom.zoomIn}
      >
        +
      </button>
      <button
        type="button"
        className="ghost lb-text"
        aria-label={fitted ? 'Actual size' : 'Fit to window'}
        title={fitted ? 'Actual size, 1:1 (double-click)' : 'Fit to window (0)'}
        disabled={disabled}
        onClick={fitted ? zoom.actualSize : zoom.fit}
      >
        {fitted ? '1:1' : 'Fit'}
      </button>
    </>
  );
}
