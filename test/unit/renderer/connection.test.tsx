// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusBar } from '../../../renderer/src/frame/StatusBar.tsx';
import { QueueHeader } from '../../../renderer/src/screens/queue/QueueHeader.tsx';
import { Notices } from '../../../renderer/src/views/Notices.tsx';
import { queueState } from './fake-api.ts';
import { mount } from './mount.tsx';

afterEach(cleanup);

describe('a window whose connection dropped', () => {
  it('says so in the status bar and above the screen, and its actions wait until it is back', async () => {
    const { fake, emit } = mount(
      <>
        <Notices />
        <QueueHeader confirm={() => {}} />
        <StatusBar onShortcuts={() => {}} />
      </>,
      { 'queue.state': () => queueState(10) },
    );
    const pause = await screen.findByRole('button', { name: 'Pause queue' });
    await waitFor(() => expect(pause.hasAttribute('disabled')).toBe(false));
    expect(screen.queryByRole('status', { name: 'Connection' })).toBeNull();

    act(() =>
      fake.lose({
        reason: "Atelier's host is not answering (network error): is “atelier ui” still running?",
        retryInMs: 5_000,
      }),
    );
    expect(screen.getByRole('status', { name: 'Connection' }).textContent).toBe(
      'Disconnected: reconnecting…',
    );
    expect(screen.getByRole('alert', { name: 'Disconnected' }).textContent).toMatch(
      /not answering \(network error\): is “atelier ui” still running\? Trying again;/,
    );
    expect(pause.hasAttribute('disabled')).toBe(true);

    emit([]); // the stream is back
    expect(screen.queryByRole('status', { name: 'Connection' })).toBeNull();
    expect(screen.queryByRole('alert', { name: 'Disconnected' })).toBeNull();
    expect(pause.hasAttribute('disabled')).toBe(false);
  });
});

describe('a window while it opens', () => {
  it('names no gateway until it knows which one: never "No gateway" while loading', async () => {
    const info = Promise.withResolvers<unknown>();
    mount(<StatusBar onShortcuts={() => {}} />, {
      'app.info': () => info.promise,
      'queue.state': () => queueState(10),
    });
    await screen.findByRole('status', { name: 'Queue' });
    expect(document.querySelector('.status-gateway')).toBeNull();
    expect(screen.queryByText('No gateway')).toBeNull();
  });
});
