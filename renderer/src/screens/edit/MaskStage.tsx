import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Zoom } from '../gallery/lightbox/ZoomControls.tsx';
import { pointIn, useViewportSize } from '../gallery/lightbox/ZoomView.tsx';
import {
  panBy,
  transformOf,
  wheelFactor,
  zoomAt,
  type Size,
} from '../gallery/lightbox/zoom-pan.ts';
import type { BrushSettings, Point } from './brush.ts';
import type { MaskLayer } from './mask-layer.ts';
import { useMaskVersion } from './use-mask.ts';

export interface StagePicture {
  src: string;
  alt: string;
  /** The size the gallery knows, to place it before it loads. */
  size: Size | null;
}

const ZERO: Size = { width: 0, height: 0 };

/**
 * The picture and the mask over it, under one zoom and pan. Painting happens in the picture's
 * own pixels (the layer is its natural size, drawn scaled), so a stroke lands where the pointer
 * is at any zoom. A drag paints or erases; with the hand tool, Space held or the middle button
 * it moves the view; the wheel zooms at the pointer.
 */
export function MaskStage({
  picture,
  layer,
  zoom,
  brush,
  moving,
  showMask,
  describedBy,
  onNaturalSize,
}: {
  picture: StagePicture;
  layer: MaskLayer | null;
  zoom: Zoom;
  brush: BrushSettings;
  /** Space is held: a drag moves the view whatever the tool. */
  moving: boolean;
  showMask: boolean;
  describedBy: string;
  onNaturalSize(size: Size): void;
}) {
  const stageRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<HTMLCanvasElement>(null);
  const cursorRef = useRef<HTMLDivElement>(null);
  const viewport = useViewportSize(stageRef);
  const [natural, setNatural] = useState<Size | null>(null);
  const [broken, setBroken] = useState(false);
  const size = natural ?? picture.size ?? ZERO;
  const t = transformOf(zoom.state, size, viewport);
  const latest = useRef({ t, zoom, size, viewport });
  latest.current = { t, zoom, size, viewport };

  const { setGeometry } = zoom;
  const { width: imageWidth, height: imageHeight } = size;
  const { width: viewWidth, height: viewHeight } = viewport;
  useEffect(() => {
    setGeometry({
      image: { width: imageWidth, height: imageHeight },
      viewport: { width: viewWidth, height: viewHeight },
    });
  }, [imageWidth, imageHeight, viewWidth, viewHeight, setGeometry]);

  // the mask on screen: a canvas the view's size (a 4096² layer in the page costs every frame),
  // redrawn from the layer when the view moves or the layer changes; strokes draw on it as well
  const version = useMaskVersion(layer);
  const dpr = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;
  const pixelWidth = Math.round(viewWidth * dpr);
  const pixelHeight = Math.round(viewHeight * dpr);
  useLayoutEffect(() => {
    const view = viewRef.current;
    const ctx = view?.getContext('2d');
    if (!layer || !view || !ctx || !showMask) return;
    if (view.width !== pixelWidth) view.width = pixelWidth;
    if (view.height !== pixelHeight) view.height = pixelHeight;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalCompositeOperation = 'source-over';
    ctx.clearRect(0, 0, view.width, view.height);
    ctx.setTransform(dpr * t.scale, 0, 0, dpr * t.scale, dpr * t.x, dpr * t.y);
    ctx.imageSmoothingEnabled = true;
    ctx.drawImage(layer.canvas, 0, 0);
    layer.setView(ctx);
    return () => layer.setView(null);
  }, [layer, version, showMask, t.x, t.y, t.scale, dpr, pixelWidth, pixelHeight]);

  // a native listener: React's wheel listeners are passive and cannot stop the page scrolling
  useEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const { zoom, size, viewport } = latest.current;
      const factor = wheelFactor(event.deltaY, event.deltaMode);
      zoom.setState(zoomAt(zoom.state, factor, pointIn(stage, event), size, viewport));
    };
    stage.addEventListener('wheel', onWheel, { passive: false });
    return () => stage.removeEventListener('wheel', onWheel);
  }, []);

  const drag = useRef<
    { kind: 'paint'; id: number } | { kind: 'move'; id: number; x: number; y: number } | null
  >(null);
  const [dragging, setDragging] = useState<'paint' | 'move' | null>(null);
  const toPicture = (event: { clientX: number; clientY: number }): Point => {
    const at = pointIn(stageRef.current!, event);
    const { t } = latest.current;
    return { x: (at.x - t.x) / t.scale, y: (at.y - t.y) / t.scale };
  };
  const placeCursor = (event: { clientX: number; clientY: number } | null) => {
    const cursor = cursorRef.current;
    if (!cursor) return;
    if (!event) {
      cursor.style.visibility = 'hidden';
      return;
    }
    const at = pointIn(stageRef.current!, event);
    cursor.style.visibility = 'visible';
    cursor.style.translate = `${at.x}px ${at.y}px`;
  };
  const stop = () => {
    if (drag.current?.kind === 'paint') layer?.end();
    drag.current = null;
    setDragging(null);
  };

  const moveTool = brush.tool === 'hand' || moving;
  const ringSize = brush.size * t.scale;
  const ready = natural !== null && layer !== null && viewport.width > 0;
  const cursorClass =
    dragging === 'move' ? ' moving' : moveTool ? ' movable' : ready ? ' painting' : '';

  return (
    <div
      ref={stageRef}
      className={`mask-stage${cursorClass}`}
      role="application"
      aria-roledescription="mask painter"
      aria-label="Mask over the picture"
      aria-describedby={describedBy}
      // the keys are the editor's (brush, size, undo, zoom…), so the stage takes the focus
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      onPointerDown={(event) => {
        event.currentTarget.focus({ preventScroll: true });
        const movingNow = moveTool || event.button === 1;
        if (movingNow) {
          event.preventDefault();
          drag.current = { kind: 'move', id: event.pointerId, x: event.clientX, y: event.clientY };
          setDragging('move');
        } else if (event.button === 0 && ready) {
          drag.current = { kind: 'paint', id: event.pointerId };
          setDragging('paint');
          layer.begin(toPicture(event), brush.size, brush.tool === 'eraser');
        } else return;
        event.currentTarget.setPointerCapture?.(event.pointerId);
      }}
      onPointerMove={(event) => {
        placeCursor(event);
        const now = drag.current;
        if (!now || now.id !== event.pointerId) return;
        if (now.kind === 'move') {
          const { zoom, size, viewport } = latest.current;
          drag.current = { ...now, x: event.clientX, y: event.clientY };
          zoom.setState(
            panBy(zoom.state, event.clientX - now.x, event.clientY - now.y, size, viewport),
          );
          return;
        }
        // every point the pointer passed since the last frame, not only the last one
        const points = event.nativeEvent.getCoalescedEvents?.() ?? [];
        for (const point of points.length > 0 ? points : [event]) layer?.extend(toPicture(point));
      }}
      onPointerUp={stop}
      onPointerCancel={stop}
      onLostPointerCapture={stop}
      onPointerLeave={() => placeCursor(null)}
    >
      <div
        className="mask-picture"
        style={{
          width: size.width || undefined,
          height: size.height || undefined,
          transform: `translate(${t.x}px, ${t.y}px) scale(${t.scale})`,
          opacity: size.width > 0 && viewport.width > 0 ? 1 : 0,
        }}
      >
        <img
          src={picture.src}
          alt={picture.alt}
          draggable={false}
          onLoad={(event) => {
            const img = event.currentTarget;
            const found = { width: img.naturalWidth, height: img.naturalHeight };
            if (found.width === 0) return;
            setNatural(found);
            onNaturalSize(found);
          }}
          onError={() => setBroken(true)}
        />
      </div>
      <canvas ref={viewRef} className="mask-view" hidden={!showMask} aria-hidden="true" />
      {ready && !moveTool && (
        <div
          ref={cursorRef}
          className={`brush-ring${brush.tool === 'eraser' ? ' erasing' : ''}`}
          style={{ width: ringSize, height: ringSize, visibility: 'hidden' }}
          aria-hidden="true"
        />
      )}
      {!natural && !broken && (
        <p className="zoom-loading" role="status">
          Loading the picture…
        </p>
      )}
      {broken && (
        <p className="zoom-loading zoom-broken" role="alert">
          The picture did not load: its file may be missing or unreadable.
        </p>
      )}
    </div>
  );
}
