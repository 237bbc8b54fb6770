// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueueState } from '../../../renderer/src/data/types.ts';
import { StatusBar } from '../../../renderer/src/frame/StatusBar.tsx';
import { QueueHeader } from '../../../renderer/src/screens/queue/QueueHeader.tsx';
import { Notices } from '../../../renderer/src/views/Notices.tsx';
import { progress } from './fake-api.ts';
import { mount } from './mount.tsx';

afterEach(cleanup);

const queueState = (): QueueState => ({
  paused: null,
  engine: 'running',
  runner: null,
  problem: null,
  limits: { concurrency: 8, current: 8, requestsPerMinute: null },
  progress: progress({ queued: 10 }),
});

describe('a window whose connection dropped', () => {
  it('says so in the status bar and above the screen, and its actions wait until it is back', async () => {
    const { fake, emit } = mount(
      <>
        <Notices />
        <QueueHeader confirm={() => {}} />
        <StatusBar onShortcuts={() => {}} />
      </>,
      { 'queue.state': queueState },
    );
    const pause = await screen.findByRole('button', { name: 'Pause queue' });
    await waitFor(() => expect(pause.hasAttribute('disabled')).toBe(false));
    expect(screen.queryByRole('status', { name: 'Connection' })).toBeNull();

    act(() =>
      fake.lose({
        reason: "Atelier's host is not answering: is `atelier ui` still running?",
        retryInMs: 5_000,
      }),
    );
    expect(screen.getByRole('status', { name: 'Connection' }).textContent).toBe(
      'Disconnected: reconnecting…',
    );
    expect(screen.getByRole('alert', { name: 'Disconnected' }).textContent).toMatch(
      /not answering: is `atelier ui` still running\?/,
    );
    expect(pause.hasAttribute('disabled')).toBe(true);

    emit([]); // the stream is back
    expect(screen.queryByRole('status', { name: 'Connection' })).toBeNull();
    expect(screen.queryByRole('alert', { name: 'Disconnected' })).toBeNull();
    expect(pause.hasAttribute('disabled')).toBe(false);
  });
});
