import { QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { ApiEvent } from '../../../shared/api/events.ts';
import { ClientContext } from '../../../renderer/src/api/client-context.ts';
import type { Client } from '../../../renderer/src/api/client.ts';
import { createData, type Data } from '../../../renderer/src/data/data.ts';
import { DataContext } from '../../../renderer/src/data/data-context.ts';
import { startEventPump } from '../../../renderer/src/data/event-pump.ts';
import { createUiStores, UiStateProvider, type UiStores } from '../../../renderer/src/ui-state.tsx';
import { fakeApi, type Fake, type Handler } from './fake-api.ts';

export interface Mounted {
  fake: Fake;
  data: Data;
  ui: UiStores;
  /** Delivers events as the service would (one delivery). */
  emit(events: ApiEvent[]): void;
  /** Renders `node` in place of the first, in the same providers (new props from a parent). */
  rerender(node: ReactNode): void;
}

/** A client of the fake API, as the screens use it (media served under /image and /thumb). */
export function fakeClient(fake: Fake, host: Client['host'] = 'web'): Client {
  return {
    api: fake.api,
    raw: fake.raw,
    host,
    mediaUrl: (rel, kind) => `/${kind}/${rel}`,
    thumbnail: () => Promise.reject(new Error('no thumbnails in tests')),
    exportUrl: (id) => `/exports/${id}.zip`,
  };
}

/**
 * `node` inside the window's providers, over a fake service answering from `handlers`, its
 * events flowing (a first delivery already came, so actions are enabled).
 */
export function mount(
  node: ReactNode,
  handlers: Record<string, Handler> = {},
  options: { host?: Client['host'] } = {},
): Mounted {
  const fake = fakeApi({
    'compose.draft': () => null,
    'compose.saveDraft': () => null,
    ...handlers,
  });
  const data = createData(fake.api);
  const ui = createUiStores(fake.api);
  startEventPump(data);
  let seq = 0;
  const emit = (events: ApiEvent[]) => act(() => fake.emit({ cursor: `c${++seq}`, events }));
  const within = (node: ReactNode) => (
    <ClientContext value={fakeClient(fake, options.host)}>
      <QueryClientProvider client={data.queries}>
        <DataContext value={data}>
          <UiStateProvider given={ui}>{node}</UiStateProvider>
        </DataContext>
      </QueryClientProvider>
    </ClientContext>
  );
  const rendered = render(within(node));
  emit([]);
  return { fake, data, ui, emit, rerender: (next) => rendered.rerender(within(next)) };
}
