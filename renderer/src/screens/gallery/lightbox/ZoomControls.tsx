import { useCallback, useMemo, useRef, useState } from 'react';
import type { Geometry } from './ZoomView.tsx';
import {
  FIT,
  centreOf,
  isFit,
  panBy,
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
  /** Whether the picture's and the viewport's sizes are known (else `scale` means nothing). */
  measured: boolean;
  zoomIn(): void;
  zoomOut(): void;
  fit(): void;
  actualSize(): void;
  /** Moves the picture by a fraction of the viewport (keys: shift and an arrow). */
  panStep(dx: number, dy: number): void;
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
  const measured = image.width > 0 && viewport.width > 0;
  return useMemo(
    () => ({
      state,
      setState,
      setGeometry,
      scale,
      measured,
      zoomIn: () => step(ZOOM_STEP),
      zoomOut: () => step(1 / ZOOM_STEP),
      fit: reset,
      actualSize: () => {
        const { state, geometry } = ref.current;
        const { image, viewport } = geometry;
        setState(zoomTo(state, 1, centreOf(viewport), image, viewport));
      },
      panStep: (dx: number, dy: number) => {
        const { state, geometry } = ref.current;
        const { image, viewport } = geometry;
        setState(panBy(state, dx * viewport.width, dy * viewport.height, image, viewport));
      },
      reset,
    }),
    [state, scale, measured, step, reset],
  );
}

/** A tenth of the viewport per press of shift and an arrow. */
const PAN_STEP = 0.1;

export function panKeys(zoom: Zoom) {
  return {
    'pan-left': () => zoom.panStep(PAN_STEP, 0),
    'pan-right': () => zoom.panStep(-PAN_STEP, 0),
    'pan-up': () => zoom.panStep(0, PAN_STEP),
    'pan-down': () => zoom.panStep(0, -PAN_STEP),
  } as const;
}

const percent = (scale: number) => `${Math.round(scale * 100)}%`;

/** The fitted scale depends on the stage, so it is told on hover, once the sizes are known. */
function readoutTitle(zoom: Zoom, fitted: boolean, disabled?: boolean): string | undefined {
  if (disabled || !fitted || !zoom.measured) return undefined;
  return `Fitted to the window, at ${percent(zoom.scale)}`;
}

/** Zoom out, "Fit" or the percentage, zoom in, and fit or 1:1. */
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
      <output
        className={disabled ? 'lb-zoom lb-zoom-off' : 'lb-zoom'}
        aria-label="Zoom"
        title={readoutTitle(zoom, fitted, disabled)}
      >
        {/* a video is fitted, and cannot zoom: said so, not a gap that looks broken */}
        {disabled || fitted ? 'Fit' : percent(zoom.scale)}
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
