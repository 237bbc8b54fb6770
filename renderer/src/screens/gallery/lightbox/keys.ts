/** What a key press in the lightbox or compare asks for; null when it is not theirs. */
export type LightboxCommand =
  | 'previous'
  | 'next'
  | 'first'
  | 'last'
  | 'favorite'
  | 'zoom-in'
  | 'zoom-out'
  | 'fit'
  | 'info'
  | 'delete'
  | 'edit'
  | 'pan-left'
  | 'pan-right'
  | 'pan-up'
  | 'pan-down';

const BY_KEY: Record<string, LightboxCommand> = {
  ArrowLeft: 'previous',
  ArrowRight: 'next',
  Home: 'first',
  End: 'last',
  f: 'favorite',
  F: 'favorite',
  '+': 'zoom-in',
  '=': 'zoom-in',
  '-': 'zoom-out',
  _: 'zoom-out',
  '0': 'fit',
  i: 'info',
  I: 'info',
  e: 'edit',
  E: 'edit',
  Delete: 'delete',
  // the Mac's delete key
  Backspace: 'delete',
};

/** Shift and an arrow moves a zoomed picture (a mouse drags it). */
const WITH_SHIFT: Record<string, LightboxCommand> = {
  ArrowLeft: 'pan-left',
  ArrowRight: 'pan-right',
  ArrowUp: 'pan-up',
  ArrowDown: 'pan-down',
};

/** Where keys belong to the element itself: typing, a video's seek, compare's divider. */
const OWN_KEYS = 'input, textarea, select, [contenteditable="true"], video, [role="slider"]';

export function commandOf(event: {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
}): LightboxCommand | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const target = event.target as Element | null;
  if (target && typeof target.closest === 'function' && target.closest(OWN_KEYS)) return null;
  if (event.shiftKey && event.key in WITH_SHIFT) return WITH_SHIFT[event.key]!;
  return BY_KEY[event.key] ?? null;
}
