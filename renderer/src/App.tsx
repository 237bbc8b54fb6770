import { useEffect, useState } from 'react';
import { connect } from './api/client.ts';
import { startEventPump } from './store/event-pump.ts';
import { createAppStore } from './store/index.ts';
import { StoreContext, useAppStore } from './store/react.ts';
import { BatchList } from './views/BatchList.tsx';
import { FinishedNotices } from './views/FinishedNotices.tsx';
import { Notices } from './views/Notices.tsx';
import { QueuePanel } from './views/QueuePanel.tsx';

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
    <StoreContext value={store}>
      <Frame />
    </StoreContext>
  );
}

function Frame() {
  useRefetchWhenStale();
  const connection = useAppStore((s) => s.connection);
  return (
    <div className="frame">
      <header className="frame-header">
        <h1>Atelier</h1>
        <span className={`connection connection-${connection}`} role="status">
          {connection === 'live'
            ? 'Connected'
            : connection === 'closed'
              ? 'Disconnected'
              : 'Connecting…'}
        </span>
      </header>
      <Notices />
      <main className="frame-main">
        <QueuePanel />
        <BatchList />
      </main>
      <FinishedNotices />
    </div>
  );
}

/** Views reload what events said is out of date (a new batch, missed events, settings). */
function useRefetchWhenStale(): void {
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
}
