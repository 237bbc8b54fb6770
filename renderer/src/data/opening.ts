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
 * Holds back the reads that neither the opening screen nor the frame's look needs until
 * `shown` settles (at most LIMIT_MS): on a gallery opening, the queue's state (the status
 * bar's words, the title) and the saved draft were answered, checked and rendered on the
 * page's one thread while the first thumbnails were decoded and drawn. (Not what changes the
 * layout above the grid: the batch filter's options widen the toolbar.) Called once, before
 * the first render; a window opening on another screen reads everything at once.
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

/** Whether the opening screen is shown (true in a window that held nothing back). */
export function opened(): boolean {
  return done;
}

/** False while the opening screen is still being shown: a query to hold back is `enabled` by it. */
export function useOpened(): boolean {
  return useSyncExternalStore(subscribe, opened);
}
