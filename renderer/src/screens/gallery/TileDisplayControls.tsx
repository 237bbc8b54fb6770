import type { TileDisplay, TileShape } from './tile-display.ts';

const SHAPES: ReadonlyArray<{ shape: TileShape; label: string; title: string; icon: string }> = [
  {
    shape: 'square',
    label: 'Square tiles',
    title: 'Square tiles: each picture cropped',
    icon: 'M3 3h10v10H3z',
  },
  {
    shape: 'whole',
    label: 'Whole pictures',
    title: 'Whole pictures: each keeps its proportions (768×512 stays 3:2)',
    icon: 'M1 5h14v7H1z',
  },
];

/** Squares or whole pictures, and captions on or off: how the tiles show, not which. */
export function TileDisplayControls({
  display,
  setDisplay,
}: {
  display: TileDisplay;
  setDisplay: (patch: Partial<TileDisplay>) => void;
}) {
  return (
    <span className="gallery-display">
      <span className="gallery-shapes" role="group" aria-label="Tiles">
        {SHAPES.map(({ shape, label, title, icon }) => (
          <button
            key={shape}
            type="button"
            className="ghost small"
            aria-label={label}
            title={title}
            aria-pressed={display.shape === shape}
            onClick={() => setDisplay({ shape })}
          >
            <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden>
              <path d={icon} fill="none" stroke="currentColor" strokeWidth="1.5" />
            </svg>
          </button>
        ))}
      </span>
      <button
        type="button"
        className="ghost small"
        aria-pressed={display.captions}
        title="Each tile's prompt and model below it"
        onClick={() => setDisplay({ captions: !display.captions })}
      >
        Captions
      </button>
    </span>
  );
}
