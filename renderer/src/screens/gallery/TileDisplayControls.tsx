import type { TileDisplay, TileShape } from './tile-display.ts';

/** Squares or whole pictures, and captions on or off: how the tiles show, not which. */
export function TileDisplayControls({
  display,
  setDisplay,
  children,
}: {
  display: TileDisplay;
  setDisplay: (patch: Partial<TileDisplay>) => void;
  /** The thumbnail size, beside them. */
  children?: React.ReactNode;
}) {
  return (
    <span className="gallery-display">
      <select
        aria-label="Tiles"
        title="Squares crop each picture; whole pictures keep their proportions"
        value={display.shape}
        onChange={(event) => setDisplay({ shape: event.target.value as TileShape })}
      >
        <option value="square">Square tiles</option>
        <option value="whole">Whole pictures</option>
      </select>
      <button
        type="button"
        className="ghost small"
        aria-pressed={display.captions}
        title="Each tile's prompt and model below it"
        onClick={() => setDisplay({ captions: !display.captions })}
      >
        Captions
      </button>
      {children}
    </span>
  );
}
