/** What a key press in the editor asks for; null when it is not the editor's. */
export type EditCommand =
  | 'brush'
  | 'eraser'
  | 'hand'
  | 'smaller'
  | 'bigger'
  | 'invert'
  | 'clear'
  | 'undo'
  | 'redo'
  | 'zoom-in'
  | 'zoom-out'
  | 'fit'
  | 'pan-left'
  | 'pan-right'
  | 'pan-up'
  | 'pan-down'
  | 'run';

const BY_KEY: Record<string, EditCommand> = {
  b: 'brush',
  e: 'eraser',
  h: 'hand',
  '[': 'smaller',
  ']': 'bigger',
  i: 'invert',
  Delete: 'clear',
  Backspace: 'clear',
  '+': 'zoom-in',
  '=': 'zoom-in',
  '-': 'zoom-out',
  _: 'zoom-out',
  '0': 'fit',
  ArrowLeft: 'pan-left',
  ArrowRight: 'pan-right',
  ArrowUp: 'pan-up',
  ArrowDown: 'pan-down',
};

/** Where keys belong to the element itself: typing, choosing, the brush size's slider. */
const OWN_KEYS = 'input, textarea, select, [contenteditable="true"], [role="slider"]';

export interface KeyLike {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
}

/** Whether the key goes to a field (typing) rather than to the editor. */
export function inField(target: EventTarget | null): boolean {
  const element = target as Element | null;
  return Boolean(element && typeof element.closest === 'function' && element.closest(OWN_KEYS));
}

export function editCommandOf(event: KeyLike): EditCommand | null {
  const mod = event.ctrlKey || event.metaKey;
  // Run works from the prompt too, as in Compose
  if (mod && event.key === 'Enter') return 'run';
  if (inField(event.target) || event.altKey) return null;
  if (mod) {
    const key = event.key.toLowerCase();
    if (key === 'z') return event.shiftKey ? 'redo' : 'undo';
    if (key === 'y') return 'redo';
    return null;
  }
  // the letters whatever the case (caps lock), the rest as typed
  return BY_KEY[event.key.length === 1 ? event.key.toLowerCase() : event.key] ?? null;
}
