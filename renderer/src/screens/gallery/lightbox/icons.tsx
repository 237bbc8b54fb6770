/** Drawn, not glyphs: the fonts of some systems lack ⓘ and ⧉. */
const svg = {
  width: 16,
  height: 16,
  viewBox: '0 0 16 16',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.5,
  'aria-hidden': true,
} as const;

export function InfoIcon() {
  return (
    <svg {...svg}>
      <circle cx="8" cy="8" r="6.5" />
      <path d="M8 7.2v4.3" strokeLinecap="round" />
      <circle cx="8" cy="4.9" r="0.5" fill="currentColor" />
    </svg>
  );
}

export function CopyIcon() {
  return (
    <svg {...svg} width={13} height={13}>
      <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
      <path d="M10.5 5.5V3.5a1 1 0 0 0-1-1h-6a1 1 0 0 0-1 1v6a1 1 0 0 0 1 1h2" />
    </svg>
  );
}

export function RerunIcon() {
  return (
    <svg {...svg} width={14} height={14}>
      <path d="M13 8a5 5 0 1 1-1.6-3.7" strokeLinecap="round" />
      <path d="M11.8 1.8v2.9H8.9" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function EditIcon() {
  return (
    <svg {...svg} width={14} height={14}>
      <path
        d="M11.2 2.3a1.5 1.5 0 0 1 2.1 0l.4.4a1.5 1.5 0 0 1 0 2.1L6 12.5l-3 .8.8-3Z"
        strokeLinejoin="round"
      />
      <path d="m10 3.5 2.5 2.5" />
    </svg>
  );
}

export function TrashIcon() {
  return (
    <svg {...svg} width={14} height={14}>
      <path d="M2.5 4h11M6 4V2.5h4V4M4 4l.7 9.5h6.6L12 4" strokeLinejoin="round" />
    </svg>
  );
}

/** Compare's divider grip: a chevron each way. */
export function GripIcon() {
  return (
    <svg {...svg} width={20} height={20} viewBox="0 0 20 20" strokeWidth={2}>
      <path d="M7.5 5.5 3 10l4.5 4.5M12.5 5.5 17 10l-4.5 4.5" strokeLinecap="round" />
    </svg>
  );
}
