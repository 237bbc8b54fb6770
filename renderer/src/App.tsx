import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { connect, type Client } from './api/client.ts';
import { ClientContext } from './api/client-context.ts';
import { createData, type Data } from './data/data.ts';
import { DataContext } from './data/data-context.ts';
import { startEventPump, type EventPump } from './data/event-pump.ts';
import { untilLive } from './data/until-live.ts';
import { Frame } from './frame/Frame.tsx';
import { UiStateProvider } from './ui-state.tsx';

export interface Connection {
  client: Client;
  data: Data;
  /** The window's event stream, when opened with the connection (openConnection). */
  events?: EventPump;
}

/** How long the first reads wait for the event stream at most: then they go as they are. */
const STREAM_WAIT_MS = 3000;

/**
 * The window's connection to the service and its (empty) cache. The event stream opens first,
 * and every call waits until the service has registered it (untilLive): a change made while
 * the window opens is then either in what it reads or told to it, never lost between them.
 */
export function openConnection(): Connection {
  const client = connect();
  const live = Promise.withResolvers<void>();
  const waited = setTimeout(live.resolve, STREAM_WAIT_MS);
  const data = createData(untilLive(client.api, live.promise));
  const events = startEventPump(data, Date.now, () => {
    clearTimeout(waited);
    live.resolve();
  });
  return { client, data, events };
}

/** The window: its connection to the service, the cache of what it shows, the screens. */
export function App({ connection }: { connection?: Connection }) {
  const [{ client, data, events }] = useState(() => connection ?? openConnection());

  useEffect(() => {
    const pump = events ?? startEventPump(data);
    return () => pump.stop();
  }, [data, events]);

  return (
    <ClientContext value={client}>
      <QueryClientProvider client={data.queries}>
        <DataContext value={data}>
          <UiStateProvider>
            <Frame />
          </UiStateProvider>
        </DataContext>
      </QueryClientProvider>
    </ClientContext>
  );
}
