/** The editor's tool icons, drawn (fonts lack most of them); each button names itself. */
const svg = {
  width: 18,
  height: 18,
  viewBox: '0 0 18 18',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.5,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
} as const;

export function BrushIcon() {
  return (
    <svg {...svg}>
      <path d="M15.5 2.5 8 10" />
      <path d="M8.6 9.4 10 10.8c.4.4.4 1 0 1.4l-.4.4" />
      <path d="M7.2 10.6c-1.5-.3-3 .6-3.3 2.2-.2 1.1-.8 1.9-1.9 2.2 2.4 1 5.6.4 6.2-2.2.2-.9 0-1.7-1-2.2Z" />
    </svg>
  );
}

export function EraserIcon() {
  return (
    <svg {...svg}>
      <path d="m7.5 15.5-4.3-4.3a1.2 1.2 0 0 1 0-1.7l6.8-6.8a1.2 1.2 0 0 1 1.7 0l3.6 3.6a1.2 1.2 0 0 1 0 1.7l-6.8 7.5H15.5" />
      <path d="m5.8 7.6 5.6 5.6" />
    </svg>
  );
}

export function HandIcon() {
  return (
    <svg {...svg}>
      <path d="M6 9V4.2a1.1 1.1 0 0 1 2.2 0V8" />
      <path d="M8.2 7.6V3.1a1.1 1.1 0 0 1 2.2 0V8" />
      <path d="M10.4 7.8V4.2a1.1 1.1 0 0 1 2.2 0V8.4" />
      <path d="M12.6 6.4a1.1 1.1 0 0 1 2.2 0v4.1c0 3-2.2 5.2-5.1 5.2H8.6c-1.5 0-2.6-.6-3.5-1.8L2.7 10.6a1.1 1.1 0 0 1 1.7-1.4L6 10.8" />
    </svg>
  );
}

export function InvertIcon() {
  return (
    <svg {...svg}>
      <circle cx="9" cy="9" r="6.5" />
      <path d="M9 2.5v13a6.5 6.5 0 0 0 0-13Z" fill="currentColor" />
    </svg>
  );
}

export function ClearIcon() {
  return (
    <svg {...svg}>
      <rect x="2.5" y="2.5" width="13" height="13" rx="2" strokeDasharray="2.2 2" />
      <path d="m6.5 6.5 5 5M11.5 6.5l-5 5" />
    </svg>
  );
}

export function UndoIcon() {
  return (
    <svg {...svg}>
      <path d="M6.5 4 3 7.5 6.5 11" />
      <path d="M3 7.5h7.5a4.5 4.5 0 0 1 0 9H8" />
    </svg>
  );
}

export function RedoIcon() {
  return (
    <svg {...svg}>
      <path d="M11.5 4 15 7.5 11.5 11" />
      <path d="M15 7.5H7.5a4.5 4.5 0 0 0 0 9H10" />
    </svg>
  );
}

export function EyeIcon({ off }: { off?: boolean }) {
  return (
    <svg {...svg}>
      <path d="M1.8 9s2.6-5 7.2-5 7.2 5 7.2 5-2.6 5-7.2 5-7.2-5-7.2-5Z" />
      <circle cx="9" cy="9" r="2.2" />
      {off && <path d="m3 15 12-12" />}
    </svg>
  );
}
