import { describe, expect, it } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import type { ApiEvent } from '../../../../shared/api/events.ts';
import type { JobState } from '../../../../shared/jobs/states.ts';
import {
  applyEvents,
  DETAIL_GAP_MS,
  type BatchPages,
  type GalleryList,
} from '../../../../renderer/src/data/apply-event.ts';
import { createData, type Data } from '../../../../renderer/src/data/data.ts';
import { startEventPump } from '../../../../renderer/src/data/event-pump.ts';
import { IdLoader } from '../../../../renderer/src/data/id-loader.ts';
import { loadIdList, newerOnTop, type IdList } from '../../../../renderer/src/data/id-lists.ts';
import { keys } from '../../../../renderer/src/data/keys.ts';
import { createQueryClient } from '../../../../renderer/src/data/query-client.ts';
import type { RefresherClock } from '../../../../renderer/src/data/refresh.ts';
import type { BatchDetail, JobSummary } from '../../../../renderer/src/data/types.ts';
import { batch, fakeApi, job, progress, type Handler } from '../fake-api.ts';

/** The data layer over a fake service; `watch` keeps a query on screen (observed). */
function setup(
  handlers: Record<string, Handler> = {},
  options: { queries?: QueryClient; clock?: RefresherClock } = {},
) {
  const fake = fakeApi(handlers);
  const data = createData(fake.api, options.queries ?? createQueryClient(), options.clock);
  const watch = (queryKey: readonly unknown[], queryFn: () => Promise<unknown>) => {
    const observer = new QueryObserver(data.queries, { queryKey, queryFn });
    return observer.subscribe(() => undefined);
  };
  const asked = (name: string) => fake.calls.filter((c) => c.name === name).length;
  return { fake, data, watch, asked };
}

const settle = () => new Promise((done) => setTimeout(done, 20));
const apply = (data: Data, ...events: ApiEvent[]) => applyEvents(data, events);

describe('the event → cache table', () => {
  it('writes what an event carries (counts, a job’s state) without asking the service', async () => {
    const { data, asked } = setup();
    const pages: BatchPages = {
      pages: [{ items: [batch(2, { queued: 4 }), batch(1, { succeeded: 3 })], next: null }],
      pageParams: [null],
    };
    data.queries.setQueryData(keys.batches(), pages);
    data.queries.setQueryData(keys.job(7), job(7, 'queued', 2));
    apply(
      data,
      {
        type: 'progress',
        payload: {
          ...progress(),
          paused: null,
          batches: [
            {
              id: 2,
              jobs: { ...batch(2).jobs, running: 1, queued: 3 },
              downloads: batch(2).downloads,
            },
          ],
        },
      },
      { type: 'jobs.changed', payload: { changes: [[7, 'running']], batches: [2] } },
    );
    const list = data.queries.getQueryData<BatchPages>(keys.batches())!.pages[0]!.items;
    expect(list[0]!.jobs).toMatchObject({ queued: 3, running: 1 });
    expect(list[1]).toBe(pages.pages[0]!.items[1]); // untouched: the same object
    expect(data.queries.getQueryData<JobSummary>(keys.job(7))?.state).toBe('running');
    await settle();
    expect(asked('batches.list') + asked('jobs.byIds')).toBe(0); // nothing on screen: no request
  });

  it('takes jobs that left a filtered list out at once, and asks again only for one that came in', async () => {
    let ids = [1, 2, 3];
    const { data, watch, asked } = setup({
      'jobs.ids': () => ({ ids, next: null, total: ids.length }),
    });
    const key = keys.jobIds(5, ['queued']);
    watch(key, () =>
      loadIdList(data.queries, key, () => data.api.jobs.ids({ batchId: 5, states: ['queued'] })),
    );
    await settle();
    apply(data, { type: 'jobs.changed', payload: { changes: [[2, 'running']], batches: [5] } });
    expect(data.queries.getQueryData<IdList>(key)).toMatchObject({ ids: [1, 3], total: 2 });
    await settle();
    expect(asked('jobs.ids')).toBe(1);
    ids = [1, 3, 9];
    apply(data, { type: 'jobs.changed', payload: { changes: [[9, 'queued']], batches: [5] } });
    await settle();
    expect(asked('jobs.ids')).toBe(2);
    expect(data.queries.getQueryData<IdList>(key)?.ids).toEqual([1, 3, 9]);
  });

  it('refreshes only the gallery lists a favourite or a failed download can change', async () => {
    const { data, watch, asked } = setup({
      'images.ids': () => ({ ids: [1], next: null, total: 1 }),
    });
    const list = (query: object) => ({
      ids: [1],
      total: 1,
      complete: true,
      groups: null,
      written: 0,
      query,
    });
    const plain = keys.imageIds({ order: 'newest', downloadStates: ['done'] }, null);
    const failed = keys.imageIds({ order: 'newest', downloadStates: ['failed'] }, null);
    for (const key of [plain, failed]) {
      data.queries.setQueryData(key, list(key[2]));
      watch(key, () =>
        data.api.images
          .ids({})
          .then((page) => ({ ...page, complete: true, groups: null, written: 0 })),
      );
    }
    apply(data, { type: 'images.changed', payload: { ids: [1], batches: [1] } });
    await settle();
    expect(asked('images.ids')).toBe(1); // the failed view only
  });

  it('counts images written into every gallery list, and drops deleted ones at once', () => {
    const { data } = setup();
    const key = keys.imageIds({ order: 'newest', downloadStates: ['done'] }, null);
    data.queries.setQueryData<GalleryList>(key, {
      ids: [3, 2, 1],
      total: 3,
      complete: true,
      groups: null,
      written: 0,
    });
    apply(
      data,
      {
        type: 'images.written',
        payload: {
          images: [{ id: 4, jobId: 4, batchId: 1, relPath: 'a.png', thumbRelPath: null }],
        },
      },
      { type: 'images.deleted', payload: { ids: [2] } },
    );
    expect(data.queries.getQueryData<GalleryList>(key)).toMatchObject({
      ids: [3, 1],
      total: 2,
      written: 1,
    });
  });
});

describe('the refresher', () => {
  it('never cancels a fetch under way, nor loses an event that came during it', async () => {
    let answer = 1;
    let release: () => void = () => undefined;
    const { data, watch } = setup();
    let fetches = 0;
    watch(['x'], async () => {
      fetches++;
      const value = answer;
      await new Promise<void>((done) => (release = done));
      return value;
    });
    await settle();
    release();
    await settle();
    expect(data.queries.getQueryData(['x'])).toBe(1);
    data.refresher.refreshKey(['x']); // a fetch starts, reading 1…
    await settle();
    answer = 2; // …then the data changes and its event comes, twice
    data.refresher.refreshKey(['x']);
    data.refresher.refreshKey(['x']);
    release();
    await settle();
    release(); // the one more fetch the events asked for
    await settle();
    expect(data.queries.getQueryData(['x'])).toBe(2);
    expect(fetches).toBe(3);
  });
});

/** A clock the test moves; its timers run when it passes them. */
function testClock() {
  let now = 0;
  let timers: Array<{ at: number; run: () => void }> = [];
  const clock: RefresherClock = {
    now: () => now,
    setTimer(run, ms) {
      const timer = { at: now + ms, run };
      timers.push(timer);
      return () => (timers = timers.filter((t) => t !== timer));
    },
  };
  const advance = (ms: number) => {
    now += ms;
    const due = timers.filter((t) => t.at <= now);
    timers = timers.filter((t) => t.at > now);
    for (const timer of due) timer.run();
  };
  return { clock, advance, pending: () => timers.length };
}

describe('the cost of a delivery', () => {
  it('finds what it touches by hash, not by walking every cached key for each', () => {
    let hashed = 0;
    const queries = new QueryClient({
      defaultOptions: {
        queries: {
          staleTime: Infinity,
          queryKeyHashFn: (key) => {
            hashed++;
            return JSON.stringify(key);
          },
        },
      },
    });
    const { data } = setup({}, { queries });
    // a long job list scrolled through: 2,000 rows cached
    for (let id = 1; id <= 2000; id++) data.queries.setQueryData(keys.job(id), job(id));
    hashed = 0;
    const images = Array.from({ length: 200 }, (_, i) => ({
      id: i + 1,
      jobId: i + 1,
      batchId: 1,
      relPath: `${i}.png`,
      thumbRelPath: null,
    }));
    const changes = images.map((image): [number, JobState] => [image.jobId, 'succeeded']);
    apply(
      data,
      { type: 'jobs.changed', payload: { changes, batches: [1] } },
      { type: 'images.written', payload: { images } },
    );
    // a few hashes per image and per row; by walking the cache, 200 × 4 × 2,000
    expect(hashed).toBeLessThan(10 * images.length);
  });

  it('reads a running batch’s detail at most every 1.5 s, the last change after the gap, a failure at once', async () => {
    const { clock, advance, pending } = testClock();
    let counts = { succeeded: 0, queued: 100, failed: 0 };
    const detail = (): BatchDetail => ({
      ...batch(1, counts),
      failures: {},
      partial: 0,
      expiredLinks: 0,
      requests: counts.succeeded,
      defaults: {},
      folder: '/library/batch-1',
    });
    const { data, watch, asked } = setup({ 'batches.get': detail }, { clock });
    watch(keys.batch(1), () => data.api.batches.get({ id: 1 }));
    await settle();
    expect(asked('batches.get')).toBe(1);
    const deliver = () =>
      apply(data, {
        type: 'progress',
        payload: {
          ...progress(),
          paused: null,
          batches: [{ id: 1, jobs: batch(1, counts).jobs, downloads: batch(1).downloads }],
        },
      });
    // ten deliveries a second, each moving the counts
    for (let i = 1; i <= 10; i++) {
      counts = { ...counts, succeeded: i, queued: 100 - i };
      deliver();
      await settle();
      advance(100);
    }
    expect(asked('batches.get')).toBe(2); // the first change, then nothing within the gap
    expect(pending()).toBe(1);
    advance(DETAIL_GAP_MS);
    await settle();
    expect(asked('batches.get')).toBe(3); // what changed since, once the gap ended
    expect(data.queries.getQueryData<BatchDetail>(keys.batch(1))?.requests).toBe(10);
    // a failure is shown within the second: its detail (failures by kind) comes at once
    counts = { ...counts, queued: counts.queued - 1, failed: 1 };
    deliver();
    await settle();
    expect(asked('batches.get')).toBe(4);
  });
});

describe('the event pump', () => {
  it('applies each delivery at once (the service already throttles) and then tells the bus', () => {
    const { fake, data } = setup();
    data.queries.setQueryData(keys.queueState(), { paused: null });
    const told: string[] = [];
    data.bus.on('batch.finished', (e) => told.push(e.payload.name));
    startEventPump(data);
    expect(data.connection.get()).toBe('connecting');
    fake.emit({
      cursor: 'c1',
      events: [
        { type: 'queue.paused', payload: { reason: 'lunch', code: 'manual', kind: 'manual' } },
      ],
    });
    expect(data.connection.get()).toBe('live');
    expect(data.queries.getQueryData(keys.queueState())).toMatchObject({
      paused: { reason: 'lunch' },
    });
    fake.emit({
      cursor: 'c2',
      events: [
        {
          type: 'batch.finished',
          payload: {
            batchId: 1,
            name: 'herons',
            jobs: batch(1).jobs,
            failures: {},
            downloads: batch(1).downloads,
            partial: 0,
          },
        },
      ],
    });
    expect(told).toEqual(['herons']);
  });
});

describe('a window cut off from the service', () => {
  it('says so while the stream is lost, and reads everything shown again once it is back', async () => {
    let name = 'herons';
    const { fake, data, watch, asked } = setup({ 'batches.get': () => ({ id: 1, name }) });
    startEventPump(data, () => 1_000);
    fake.emit({ cursor: 'c1', events: [] });
    watch(keys.batch(1), () => data.api.batches.get({ id: 1 }));
    await settle();
    expect(data.connection.get()).toBe('live');
    fake.lose({ reason: "Atelier's host is not answering.", retryInMs: 2_000 });
    expect(data.connection.get()).toBe('lost');
    expect(data.connection.problem()).toEqual({
      reason: "Atelier's host is not answering.",
      retryAt: 3_000,
    });
    // renamed elsewhere meanwhile: no event for it reaches this window
    name = 'egrets';
    fake.emit({ cursor: 'c2', events: [] }); // back: the stream reopened from its cursor
    expect(data.connection.get()).toBe('live');
    expect(data.connection.problem()).toBeNull();
    await settle();
    expect(asked('batches.get')).toBe(2);
    expect(data.queries.getQueryData<{ name: string }>(keys.batch(1))?.name).toBe('egrets');
    // an ordinary delivery reads nothing again
    fake.emit({ cursor: 'c3', events: [] });
    await settle();
    expect(asked('batches.get')).toBe(2);
  });
});

describe('ids then details', () => {
  it('asks for the rows of one render in one call, MAX_DETAILS at a time', async () => {
    const calls: number[][] = [];
    const loader = new IdLoader(async (ids: number[]) => {
      calls.push(ids);
      return ids.filter((id) => id !== 3).map((id) => ({ id }));
    });
    const got = await Promise.all([1, 2, 3, 2].map((id) => loader.load(id)));
    expect(calls).toEqual([[1, 2, 3]]);
    expect(got).toEqual([{ id: 1 }, { id: 2 }, null, { id: 2 }]);
  });

  it('keeps a loaded list when only newer ids came on top', () => {
    expect(newerOnTop([5, 4, 3], { ids: [7, 6, 5, 4], total: 5 })).toEqual([7, 6, 5, 4, 3]);
    expect(newerOnTop([5, 4, 3], { ids: [5, 4], total: 3 })).toEqual([5, 4, 3]);
    // something else moved: the whole list is read again
    expect(newerOnTop([5, 4, 3], { ids: [7, 5, 3], total: 4 })).toBeNull();
    expect(newerOnTop([5, 4, 3], { ids: [9, 8], total: 5 })).toBeNull();
  });
});
