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
