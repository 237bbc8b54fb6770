import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useConnection, useData } from '../../../data/data-context.ts';
import { keys } from '../../../data/keys.ts';

/**
 * A prompt-help request this window started: read once with `prompts.get`, then kept current
 * by its `prompts.progress` events (the event pump writes them in: apply-event.ts).
 */
export function usePromptHelp(id: string | null) {
  const { api, refresher } = useData();
  const connection = useConnection();
  const query = useQuery({
    queryKey: keys.promptHelp(id ?? ''),
    queryFn: () => api.prompts.get({ id: id! }),
    enabled: id !== null,
  });
  // its events are not replayed after a reconnect: a request still running is read again
  const running = query.data?.state === 'running';
  const wasLive = useRef(connection === 'live');
  useEffect(() => {
    const live = connection === 'live';
    if (live && !wasLive.current && id !== null && running) {
      refresher.refreshKey(keys.promptHelp(id));
    }
    wasLive.current = live;
  }, [connection, id, running, refresher]);
  return id === null ? undefined : query.data;
}
