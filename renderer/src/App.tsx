import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { connect, type Client } from './api/client.ts';
import { ClientContext } from './api/client-context.ts';
import { createData, type Data } from './data/data.ts';
import { DataContext } from './data/data-context.ts';
import { startEventPump } from './data/event-pump.ts';
import { Frame } from './frame/Frame.tsx';
import { UiStateProvider } from './ui-state.tsx';

export interface Connection {
  client: Client;
  data: Data;
}

/** The window's connection to the service and its (empty) cache. */
export function openConnection(): Connection {
  const client = connect();
  return { client, data: createData(client.api) };
}

/** The window: its connection to the service, the cache of what it shows, the screens. */
export function App({ connection }: { connection?: Connection }) {
  const [{ client, data }] = useState(() => connection ?? openConnection());

  useEffect(() => {
    const pump = startEventPump(data);
    return () => pump.stop();
  }, [data]);

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
