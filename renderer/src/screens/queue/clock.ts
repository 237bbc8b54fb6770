import { useSyncExternalStore } from 'react';

/**
 * A clock for elapsed times on screen: one timer for every reader, running only while one is
 * shown (it asks the service for nothing; the video jobs' events bring their status).
 */
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    for (const each of listeners) each();
  }, 1000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

const still = () => () => {};
// whole seconds: the same answer however often it is read within one
const second = () => Math.floor(Date.now() / 1000) * 1000;
const zero = () => 0;

/** The time now, to the second, while `running`; 0 otherwise (no timer). */
export function useClock(running: boolean): number {
  return useSyncExternalStore(running ? subscribe : still, running ? second : zero);
}
