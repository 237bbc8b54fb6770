import type { ReactNode } from 'react';
import { ZoomControls, type Zoom } from '../gallery/lightbox/ZoomControls.tsx';
import { BRUSH_SIZES, type BrushSettings, type Tool } from './brush.ts';
import {
  BrushIcon,
  ClearIcon,
  EraserIcon,
  EyeIcon,
  HandIcon,
  InvertIcon,
  RedoIcon,
  UndoIcon,
} from './edit-icons.tsx';

const TOOLS: ReadonlyArray<{ tool: Tool; label: string; key: string; icon: ReactNode }> = [
  { tool: 'brush', label: 'Brush', key: 'B', icon: <BrushIcon /> },
  { tool: 'eraser', label: 'Eraser', key: 'E', icon: <EraserIcon /> },
  { tool: 'hand', label: 'Move', key: 'H, or hold Space', icon: <HandIcon /> },
];

export interface ToolCommands {
  setBrush(patch: Partial<BrushSettings>): void;
  invert(): void;
  clear(): void;
  undo(): void;
  redo(): void;
  toggleMask(): void;
}

/** The mask's tools: brush, eraser, move; the size; invert, clear; undo, redo; show; zoom. */
export function EditTools({
  brush,
  commands,
  canUndo,
  canRedo,
  showMask,
  zoom,
  disabled,
}: {
  brush: BrushSettings;
  commands: ToolCommands;
  canUndo: boolean;
  canRedo: boolean;
  showMask: boolean;
  zoom: Zoom;
  /** No picture to paint over (still loading, or not a picture). */
  disabled: boolean;
}) {
  return (
    <>
      <span className="ed-group" role="group" aria-label="Tool">
        {TOOLS.map(({ tool, label, key, icon }) => (
          <IconButton
            key={tool}
            label={label}
            keys={key}
            pressed={brush.tool === tool}
            disabled={disabled}
            onClick={() => commands.setBrush({ tool })}
          >
            {icon}
          </IconButton>
        ))}
      </span>
      <label className="ed-size" title="Brush size ([ and ])">
        <span className="ed-size-label">Size</span>
        <input
          type="range"
          aria-label="Brush size"
          aria-valuetext={`${brush.size} pixels`}
          min={BRUSH_SIZES.min}
          max={BRUSH_SIZES.max}
          value={brush.size}
          disabled={disabled}
          onChange={(event) => commands.setBrush({ size: Number(event.target.value) })}
        />
        <output className="ed-size-value">{brush.size} px</output>
      </label>
      <span className="lb-sep" aria-hidden="true" />
      <IconButton label="Invert mask" keys="I" disabled={disabled} onClick={commands.invert}>
        <InvertIcon />
      </IconButton>
      <IconButton label="Clear mask" keys="Delete" disabled={disabled} onClick={commands.clear}>
        <ClearIcon />
      </IconButton>
      <IconButton
        label="Undo"
        keys="Ctrl+Z"
        disabled={disabled || !canUndo}
        onClick={commands.undo}
      >
        <UndoIcon />
      </IconButton>
      <IconButton
        label="Redo"
        keys="Ctrl+Shift+Z"
        disabled={disabled || !canRedo}
        onClick={commands.redo}
      >
        <RedoIcon />
      </IconButton>
      <IconButton
        label="Show mask"
        pressed={showMask}
        disabled={disabled}
        onClick={commands.toggleMask}
      >
        <EyeIcon off={!showMask} />
      </IconButton>
      <span className="lb-sep" aria-hidden="true" />
      <ZoomControls zoom={zoom} disabled={disabled} />
    </>
  );
}

function IconButton({
  label,
  keys,
  pressed,
  disabled,
  onClick,
  children,
}: {
  label: string;
  keys?: string;
  pressed?: boolean;
  disabled?: boolean;
  onClick(): void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={`ghost lb-icon${pressed ? ' lb-on' : ''}`}
      aria-label={label}
      aria-pressed={pressed}
      aria-keyshortcuts={keys?.replace(/, or hold /, ' ').replace('Ctrl+', 'Control+')}
      title={keys ? `${label} (${keys})` : label}
      disabled={disabled}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
