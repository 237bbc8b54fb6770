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
  | 'delete';

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
  Delete: 'delete',
  // the Mac's delete key
  Backspace: 'delete',
};

/** Where keys belong to the element itself: typing, a video's seek, compare's divider. */
const OWN_KEYS = 'input, textarea, select, [contenteditable="true"], video, [role="slider"]';

export function commandOf(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
}): LightboxCommand | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const target = event.target as Element | null;
  if (target && typeof target.closest === 'function' && target.closest(OWN_KEYS)) return null;
  return BY_KEY[event.key] ?? null;
}
