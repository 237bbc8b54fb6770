import { useSyncExternalStore } from 'react';

/** The frame's other reads start after this at the latest, whatever the opening screen does. */
const LIMIT_MS = 1500;

let done = true;
const listeners = new Set<() => void>();

function finish(): void {
  if (done) return;
  done = true;
  for (const listener of listeners) listener();
}

/**
 * Holds back the reads that are not the opening screen's own until `shown` settles (at most
 * LIMIT_MS): on a gallery opening, the queue's state, the app's info, the batches, the
 * filters' counts and the saved draft were answered, checked and rendered on the page's one
 * thread while the first thumbnails were decoded and drawn. Called once, before the first
 * render; a window opening on another screen reads everything at once.
 */
export function holdUntilOpened(shown: Promise<unknown>, limitMs = LIMIT_MS): void {
  done = false;
  const limit = setTimeout(finish, limitMs);
  const end = () => {
    clearTimeout(limit);
    finish();
  };
  shown.then(end, end);
}

const subscribe = (onChange: () => void) => {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
};

/** False while the opening screen is still being shown: a query to hold back is `enabled` by it. */
export function useOpened(): boolean {
  return useSyncExternalStore(subscribe, () => done);
}
