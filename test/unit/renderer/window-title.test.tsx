// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { notifyManager, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../renderer/src/data/query-client.ts';
import { keys } from '../../../renderer/src/data/keys.ts';
import type { QueueState } from '../../../renderer/src/data/types.ts';
import { WindowTitle } from '../../../renderer/src/frame/window-title.ts';
import { DataContext } from '../../../renderer/src/data/data-context.ts';
import { createData } from '../../../renderer/src/data/data.ts';
import { fakeApi, progress } from './fake-api.ts';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  notifyManager.setScheduler((run) => setTimeout(run, 0));
});

describe('the window title', () => {
  it('follows progress without re-rendering what holds it, the count at most once a second', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const data = createData(fakeApi().api, createQueryClient());
    // the cache tells its readers on a timer of its own: at once here, where time is faked
    // (after the client is made, which sets the window's timer)
    notifyManager.setScheduler((run) => run());
    const queue = (jobs: Parameters<typeof progress>[0]): QueueState => ({
      paused: null,
      engine: 'running',
      runner: null,
      problem: null,
      limits: { concurrency: 8, current: 8, requestsPerMinute: null },
      progress: progress(jobs),
    });
    const set = (jobs: Parameters<typeof progress>[0]) =>
      act(() => data.queries.setQueryData(keys.queueState(), queue(jobs)));
    set({});
    let frameRenders = 0;
    function Frame() {
      frameRenders++;
      return <WindowTitle />;
    }
    render(
      <QueryClientProvider client={data.queries}>
        <DataContext value={data}>
          <Frame />
        </DataContext>
      </QueryClientProvider>,
    );
    expect(document.title).toBe('Atelier');
    act(() => vi.advanceTimersByTime(1000));
    set({ succeeded: 1, queued: 99 });
    expect(document.title).toBe('Atelier — 1 / 100 (1 %)');

    set({ succeeded: 2, queued: 98 });
    set({ succeeded: 3, queued: 97 });
    expect(document.title).toBe('Atelier — 1 / 100 (1 %)');
    act(() => vi.advanceTimersByTime(1000));
    expect(document.title).toBe('Atelier — 3 / 100 (3 %)');
    set({ succeeded: 4, queued: 96 });
    set({ succeeded: 100 });
    expect(document.title).toBe('Atelier');
    expect(frameRenders).toBe(1);
  });
});
