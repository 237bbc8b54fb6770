import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import {
  isFit,
  panBy,
  toggleFit,
  transformOf,
  wheelFactor,
  zoomAt,
  type Size,
  type ViewState,
} from './zoom-pan.ts';

export interface Layer {
  src: string;
  alt: string;
  /** The file's size when known before it loads (the detail's width and height). */
  size?: Size | null;
  /** Shows only the part right of this fraction of the viewport (compare's slider). */
  clipLeft?: number;
  /** A small stand-in (the thumbnail), drawn blurred in the picture's place until it loads. */
  placeholder?: string;
}

/** What zooming by keys or buttons needs to know: the picture's and the viewport's sizes. */
export interface Geometry {
  image: Size;
  viewport: Size;
}

export interface ZoomViewProps {
  layers: readonly Layer[];
  state: ViewState;
  onStateChange(state: ViewState): void;
  onGeometry?(geometry: Geometry): void;
  className?: string;
  /** Drawn over the picture (compare's divider). */
  children?: ReactNode;
}

const ZERO: Size = { width: 0, height: 0 };
/** Screen pixels: enough to read as "coming", not as a bad picture. */
const PLACEHOLDER_BLUR = 10;

/**
 * Pictures under one zoom and pan: the wheel zooms at the cursor, a drag pans, a double-click
 * toggles fit and 1:1. The first layer's size is the reference for every gesture.
 */
export function ZoomView({
  layers,
  state,
  onStateChange,
  onGeometry,
  className,
  children,
}: ZoomViewProps) {
  const stageRef = useRef<HTMLDivElement>(null);
  const viewport = useViewportSize(stageRef);
  const [loaded, setLoaded] = useState<Record<string, Size>>({});
  const [broken, setBroken] = useState<Record<string, true>>({});
  const sizeOf = (layer: Layer): Size => loaded[layer.src] ?? layer.size ?? ZERO;
  const reference = layers[0] ? sizeOf(layers[0]) : ZERO;
  const latest = useRef({ state, reference, viewport, onStateChange });
  latest.current = { state, reference, viewport, onStateChange };

  // told only when a size changes (by value: the objects are new at every render)
  const { width: imageWidth, height: imageHeight } = reference;
  const { width: viewWidth, height: viewHeight } = viewport;
  useEffect(() => {
    onGeometry?.({
      image: { width: imageWidth, height: imageHeight },
      viewport: { width: viewWidth, height: viewHeight },
    });
  }, [imageWidth, imageHeight, viewWidth, viewHeight, onGeometry]);

  // a native listener: React's wheel listeners are passive and cannot stop the page scrolling
  useEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const { state, reference, viewport, onStateChange } = latest.current;
      const at = pointIn(stage, event);
      onStateChange(
        zoomAt(state, wheelFactor(event.deltaY, event.deltaMode), at, reference, viewport),
      );
    };
    stage.addEventListener('wheel', onWheel, { passive: false });
    return () => stage.removeEventListener('wheel', onWheel);
  }, []);

  const drag = useRef<{ id: number; x: number; y: number } | null>(null);
  const zoomed = !isFit(state);
  const waiting = layers.some((layer) => !loaded[layer.src] && !broken[layer.src]);
  const failed = layers.some((layer) => broken[layer.src]);

  return (
    <div
      ref={stageRef}
      className={`zoom-view${zoomed ? ' zoom-view-zoomed' : ''} ${className ?? ''}`}
      onPointerDown={(event) => {
        if (event.button !== 0 || (event.target as Element).closest('[data-no-pan]')) return;
        drag.current = { id: event.pointerId, x: event.clientX, y: event.clientY };
        event.currentTarget.setPointerCapture?.(event.pointerId);
      }}
      onPointerMove={(event) => {
        const from = drag.current;
        if (!from || from.id !== event.pointerId) return;
        drag.current = { ...from, x: event.clientX, y: event.clientY };
        onStateChange(
          panBy(state, event.clientX - from.x, event.clientY - from.y, reference, viewport),
        );
      }}
      onPointerUp={() => (drag.current = null)}
      onPointerCancel={() => (drag.current = null)}
      onDoubleClick={(event) => {
        if (!stageRef.current || (event.target as Element).closest('[data-no-pan]')) return;
        onStateChange(toggleFit(state, pointIn(stageRef.current, event), reference, viewport));
      }}
    >
      {layers.map((layer) => {
        const size = sizeOf(layer);
        const t = transformOf(state, size, viewport);
        const clip = layer.clipLeft;
        const placed = size.width > 0 && viewport.width > 0;
        const style = {
          width: size.width || undefined,
          height: size.height || undefined,
          transform: `translate(${t.x}px, ${t.y}px) scale(${t.scale})`,
        };
        return (
          <div
            key={layer.src}
            className="zoom-layer"
            style={clip === undefined ? undefined : { clipPath: `inset(0 0 0 ${clip * 100}%)` }}
          >
            {layer.placeholder && placed && !loaded[layer.src] && !broken[layer.src] && (
              <img
                className="zoom-placeholder"
                src={layer.placeholder}
                alt=""
                draggable={false}
                // a blur of a like size on screen, whatever the scale
                style={{ ...style, filter: `blur(${PLACEHOLDER_BLUR / t.scale}px)` }}
                // no thumbnail yet (made on first view): the Loading… cue says enough
                onError={(event) => (event.currentTarget.style.visibility = 'hidden')}
              />
            )}
            <img
              src={layer.src}
              alt={layer.alt}
              draggable={false}
              style={{
                ...style,
                // unplaced until both sizes are known; opacity keeps it in the accessibility tree
                opacity: placed && !broken[layer.src] ? 1 : 0,
              }}
              onLoad={(event) => {
                const img = event.currentTarget;
                const natural = { width: img.naturalWidth, height: img.naturalHeight };
                if (natural.width > 0) setLoaded((m) => ({ ...m, [layer.src]: natural }));
              }}
              onError={() => setBroken((m) => ({ ...m, [layer.src]: true }))}
            />
          </div>
        );
      })}
      {waiting && (
        <p className="zoom-loading" role="status">
          Loading…
        </p>
      )}
      {failed && (
        <p className="zoom-loading zoom-broken" role="alert">
          The picture did not load: its file may be missing or unreadable.
        </p>
      )}
      {children}
    </div>
  );
}

export function pointIn(element: Element, event: { clientX: number; clientY: number }) {
  const box = element.getBoundingClientRect();
  return { x: event.clientX - box.left, y: event.clientY - box.top };
}

/** The element's size, kept current as the window or the info panel changes it. */
export function useViewportSize(ref: React.RefObject<HTMLElement | null>): Size {
  const [size, setSize] = useState<Size>(ZERO);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const { width, height } = element.getBoundingClientRect();
      setSize((old) => (old.width === width && old.height === height ? old : { width, height }));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}
