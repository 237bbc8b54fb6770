import { QueryClient } from '@tanstack/react-query';

/**
 * The window's one cache of server data. Nothing goes stale by time (`staleTime: Infinity`)
 * and nothing refetches on focus or reconnect: the service's events say what changed, and the
 * event pump invalidates exactly that (apply-event.ts), so an idle screen asks for nothing.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        // the service's refusal is an answer: shown as it is, not asked three more times
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
