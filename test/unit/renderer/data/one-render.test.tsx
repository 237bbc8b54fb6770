// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { Profiler } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { IdLoader } from '../../../../renderer/src/data/id-loader.ts';
import {
  coalescingScheduler,
  createQueryClient,
} from '../../../../renderer/src/data/query-client.ts';

// renders as in the window, not gathered by act(): what is measured is how many there are
beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
});
afterEach(cleanup);

const settle = () => new Promise((done) => setTimeout(done, 30));
const IDS = Array.from({ length: 40 }, (_, i) => i + 1);

/** Forty rows, each its own query of one id, as the gallery's tiles; counts the commits. */
function mountRows(load: (id: number) => Promise<{ id: number } | null>) {
  const queries = createQueryClient();
  function Row({ id }: { id: number }) {
    const { data } = useQuery({ queryKey: ['row', id], queryFn: () => load(id) });
    return <p>{data ? `row ${data.id}` : 'loading'}</p>;
  }
  const commits = { count: 0 };
  render(
    <QueryClientProvider client={queries}>
      <Profiler id="rows" onRender={() => commits.count++}>
        {IDS.map((id) => (
          <Row key={id} id={id} />
        ))}
      </Profiler>
    </QueryClientProvider>,
  );
  return { queries, commits };
}

describe('what the cache tells the screen', () => {
  it('draws the rows of one answer in one render, not one render a row', async () => {
    let answer: (() => void) | undefined;
    const loader = new IdLoader<{ id: number }>(
      (ids) => new Promise((done) => (answer = () => done(ids.map((id) => ({ id }))))),
    );
    const { commits } = mountRows((id) => loader.load(id));
    await settle();
    expect(answer).toBeDefined();
    commits.count = 0;
    answer!();
    await settle();
    expect(screen.getAllByText(/^row \d+$/)).toHaveLength(IDS.length);
    // each render of the gallery asks its own bundle of thumbnails: one render, one bundle
    expect(commits.count).toBe(1);
  });

  it('draws details written to the cache together in one render', async () => {
    const { queries, commits } = mountRows(() => new Promise(() => undefined));
    await settle();
    commits.count = 0;
    // a new view's first screen of details, written as they come with its ids
    for (const id of IDS) queries.setQueryData(['row', id], { id });
    await settle();
    expect(screen.getAllByText(/^row \d+$/)).toHaveLength(IDS.length);
    expect(commits.count).toBe(1);
  });
});

describe('the one-timer scheduler', () => {
  it('runs everything scheduled before its timer fires on that one timer, in order', () => {
    const timers: Array<() => void> = [];
    const schedule = coalescingScheduler((run) => timers.push(run));
    const ran: string[] = [];
    schedule(() => ran.push('a'));
    schedule(() => ran.push('b'));
    schedule(() => {
      ran.push('c');
      // told while the timer runs: the next timer's
      schedule(() => ran.push('d'));
    });
    expect(timers).toHaveLength(1);
    timers[0]!();
    expect(ran).toEqual(['a', 'b', 'c']);
    expect(timers).toHaveLength(2);
    timers[1]!();
    expect(ran).toEqual(['a', 'b', 'c', 'd']);
  });

  it('uses a zero timeout by default', () => {
    vi.useFakeTimers();
    try {
      const ran: number[] = [];
      const schedule = coalescingScheduler();
      schedule(() => ran.push(1));
      schedule(() => ran.push(2));
      expect(ran).toEqual([]);
      vi.advanceTimersByTime(0);
      expect(ran).toEqual([1, 2]);
    } finally {
      vi.useRealTimers();
    }
  });
});
