import { notifyManager, QueryClient } from '@tanstack/react-query';
import { shareStructure } from './share-structure.ts';

/**
 * The window's one cache of server data. Nothing goes stale by time (`staleTime: Infinity`)
 * and nothing refetches on focus or reconnect: the service's events say what changed, and the
 * event pump invalidates exactly that (apply-event.ts), so an idle screen asks for nothing.
 */
export function createQueryClient(): QueryClient {
  notifyManager.setScheduler(oneTimerForAll);
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        // the service's refusal is an answer: shown as it is, not asked three more times
        retry: false,
        structuralSharing: shareStructure,
      },
      mutations: { retry: false },
    },
  });
}

/**
 * Creates a scheduler that tells the cache's readers on one timer whatever changed before it
 * fires. TanStack Query's own gives every change a timer of its own, so the 40 tile summaries
 * of one `images.byIds` answer rendered the grid 40 times, one task each, and each render's
 * thumbnails went in a bundle of their own: 40 requests for one screen instead of one.
 */
export function coalescingScheduler(
  setTimer: (run: () => void) => unknown = (run) => setTimeout(run, 0),
): (notify: () => void) => void {
  let waiting: Array<() => void> = [];
  return (notify) => {
    waiting.push(notify);
    if (waiting.length > 1) return;
    setTimer(() => {
      const now = waiting;
      waiting = [];
      for (const run of now) run();
    });
  };
}

const oneTimerForAll = coalescingScheduler();
