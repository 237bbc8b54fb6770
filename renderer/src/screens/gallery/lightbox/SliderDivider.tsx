import { useRef } from 'react';
import { GripIcon } from './icons.tsx';

const KEY_STEP = 0.05;
const BIG_STEP = 0.25;
const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** Where A ends and B begins: dragged, or moved by the arrow keys, Page Up/Down, Home/End. */
export function SliderDivider({
  value,
  onChange,
}: {
  value: number;
  onChange(value: number): void;
}) {
  const dragging = useRef<number | null>(null);
  const percent = Math.round(value * 100);
  const fromPointer = (element: Element, clientX: number) => {
    const box = element.parentElement!.getBoundingClientRect();
    if (box.width > 0) onChange(clamp01((clientX - box.left) / box.width));
  };
  return (
    <div
      className="cmp-divider"
      style={{ left: `${value * 100}%` }}
      role="slider"
      aria-label="Divider between A and B"
      aria-orientation="horizontal"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={`${percent}% of A shown`}
      tabIndex={0}
      data-no-pan=""
      onPointerDown={(event) => {
        dragging.current = event.pointerId;
        event.currentTarget.setPointerCapture?.(event.pointerId);
        event.stopPropagation();
      }}
      onPointerMove={(event) => {
        if (dragging.current === event.pointerId) fromPointer(event.currentTarget, event.clientX);
      }}
      onPointerUp={() => (dragging.current = null)}
      onPointerCancel={() => (dragging.current = null)}
      onKeyDown={(event) => {
        const next: Record<string, number> = {
          ArrowLeft: value - KEY_STEP,
          ArrowDown: value - KEY_STEP,
          ArrowRight: value + KEY_STEP,
          ArrowUp: value + KEY_STEP,
          PageDown: value - BIG_STEP,
          PageUp: value + BIG_STEP,
          Home: 0,
          End: 1,
        };
        const to = next[event.key];
        if (to === undefined) return;
        event.preventDefault();
        event.stopPropagation();
        onChange(clamp01(to));
      }}
    >
      {/* the letters ride beside the line: A shows left of it, B right of it */}
      <span className="cmp-badge cmp-badge-a" aria-hidden="true">
        A
      </span>
      <span className="cmp-handle" aria-hidden="true">
        <GripIcon />
      </span>
      <span className="cmp-badge cmp-badge-b" aria-hidden="true">
        B
      </span>
    </div>
  );
}
