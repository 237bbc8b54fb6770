import * as Tabs from '@radix-ui/react-tabs';
import { useSyncExternalStore } from 'react';
import { useSettings } from '../../data/app-queries.ts';
import { GatewaySection } from './GatewaySection.tsx';
import { GeneralSection } from './GeneralSection.tsx';
import { LibrarySection } from './LibrarySection.tsx';
import { ModelsSection } from './ModelsSection.tsx';
import { QueueSection } from './QueueSection.tsx';
import { SpendingSection } from './SpendingSection.tsx';
import './settings.css';

const SECTIONS = [
  { id: 'gateway', label: 'Gateway & key' },
  { id: 'models', label: 'Models & prices' },
  { id: 'queue', label: 'Queue' },
  { id: 'spending', label: 'Spending' },
  { id: 'library', label: 'Library' },
  { id: 'general', label: 'General' },
] as const;
type SectionId = (typeof SECTIONS)[number]['id'];

/** The section named by the hash (`#/settings/models`), so reload keeps the place. */
export function sectionOf(hash: string): SectionId {
  const id = hash.replace(/^#\/?/, '').split('/')[1];
  return SECTIONS.find((s) => s.id === id)?.id ?? 'gateway';
}

const subscribe = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};

/** Settings: gateways and the key, models and prices, the queue's limits, the library. */
export function SettingsScreen() {
  const settings = useSettings().data ?? null;
  const section = useSyncExternalStore(subscribe, () => sectionOf(window.location.hash));
  return (
    <section className="screen settings" aria-labelledby="settings-heading">
      <h1 id="settings-heading">Settings</h1>
      {settings === null ? (
        <p className="muted" role="status">
          Loading the settings…
        </p>
      ) : (
        <Tabs.Root
          value={section}
          onValueChange={(id) => (window.location.hash = `#/settings/${id}`)}
          className="settings-tabs"
        >
          <Tabs.List className="settings-tab-list" aria-label="Settings sections">
            {SECTIONS.map((s) => (
              <Tabs.Trigger key={s.id} value={s.id} className="settings-tab">
                {s.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Tabs.Content value="gateway" className="settings-content">
            <GatewaySection settings={settings} />
          </Tabs.Content>
          <Tabs.Content value="models" className="settings-content">
            <ModelsSection settings={settings} />
          </Tabs.Content>
          <Tabs.Content value="queue" className="settings-content">
            <QueueSection
              key={`${settings.concurrency}/${settings.requestsPerMinute}`}
              settings={settings}
            />
          </Tabs.Content>
          <Tabs.Content value="spending" className="settings-content">
            <SpendingSection settings={settings} />
          </Tabs.Content>
          <Tabs.Content value="library" className="settings-content">
            <LibrarySection settings={settings} />
          </Tabs.Content>
          <Tabs.Content value="general" className="settings-content">
            <GeneralSection settings={settings} />
          </Tabs.Content>
        </Tabs.Root>
      )}
    </section>
  );
}
