import { useEffect, useState } from 'react';
import { connect } from './api/client.ts';
import { ClientContext } from './api/client-context.ts';
import { startEventPump } from './store/event-pump.ts';
import { createAppStore } from './store/index.ts';
import { StoreContext, useAppStore } from './store/react.ts';
import { Frame } from './frame/Frame.tsx';

export function App() {
  const [{ client, store }] = useState(() => {
    const client = connect();
    return { client, store: createAppStore(client.api) };
  });

  useEffect(() => {
    const pump = startEventPump(store, client.api.events);
    const { loadApp, loadQueue, loadBatches } = store.getState();
    void loadApp();
    void loadQueue();
    void loadBatches();
    return () => pump.stop();
  }, [client, store]);

  return (
    <ClientContext value={client}>
      <StoreContext value={store}>
        <Refetcher />
        <Frame />
      </StoreContext>
    </ClientContext>
  );
}

/** Views reload what events said is out of date (a new batch, missed events, settings). */
function Refetcher(): null {
  const batchesStale = useAppStore((s) => s.batchesStale);
  const settingsStale = useAppStore((s) => s.settingsStale);
  const loadBatches = useAppStore((s) => s.loadBatches);
  const loadSettings = useAppStore((s) => s.loadSettings);
  useEffect(() => {
    if (batchesStale) void loadBatches();
  }, [batchesStale, loadBatches]);
  useEffect(() => {
    if (settingsStale) void loadSettings();
  }, [settingsStale, loadSettings]);
  return null;
}
