import { describe, expect, it } from 'vitest';
import { applyEvents } from '../../../renderer/src/store/apply-events.ts';
import { createAppStore } from '../../../renderer/src/store/index.ts';
import { jobsKey, parseJobsKey } from '../../../renderer/src/store/jobs-key.ts';
import type { JobSummary } from '../../../renderer/src/store/state.ts';
import { MAX_DETAILS } from '../../../shared/api/paging.ts';
import { fakeApi, job, Refusal } from './fake-api.ts';

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** A batch of 1,200 jobs whose ids and details the fake serves. */
function setup() {
  const asked: number[][] = [];
  const fake = fakeApi({
    'jobs.ids': (input: { batchId: number; cursor?: string | null }) =>
      input.cursor
        ? { ids: ids(1_001, 1_200), next: null, total: 1_200 }
        : { ids: ids(1, 1_000), next: 'more', total: 1_200 },
    'jobs.byIds': (input: { ids: number[] }) => {
      asked.push(input.ids);
      return input.ids.map((id) => job(id));
    },
  });
  return { fake, asked, store: createAppStore(fake.api) };
}

describe('job lists, ids first', () => {
  it('loads a key’s ids with its batch and states, then the next page', async () => {
    const { fake, store } = setup();
    const key = jobsKey(7, ['running', 'failed']);
    await store.getState().fetchIds(key);
    expect(fake.calls[0]).toEqual({
      name: 'jobs.ids',
      input: { batchId: 7, states: ['failed', 'running'], cursor: null, limit: 10_000 },
    });
    expect(store.getState().jobIdsByKey.get(key)).toMatchObject({ next: 'more', total: 1_200 });
    await store.getState().fetchMoreIds(key);
    expect(fake.calls[1]!.input).toMatchObject({ cursor: 'more' });
    expect(store.getState().jobIdsByKey.get(key)!.ids).toEqual(ids(1, 1_200));
  });

  it('fetches details only for uncached ids of the range, at most 500 per call', async () => {
    const { store, asked } = setup();
    const key = jobsKey(1);
    await store.getState().fetchIds(key);
    await store.getState().fetchMoreIds(key);
    await store.getState().fetchRange(key, 0, 100);
    expect(asked).toEqual([ids(1, 100)]);
    asked.length = 0;
    await store.getState().fetchRange(key, 50, 1_200);
    expect(asked.map((call) => call.length)).toEqual([MAX_DETAILS, MAX_DETAILS, 100]);
    expect(asked.flat()).toEqual(ids(101, 1_200));
    asked.length = 0;
    await store.getState().fetchRange(key, 0, 1_200);
    expect(asked).toEqual([]);
    expect(store.getState().jobsById.size).toBe(1_200);
    expect(store.getState().jobsPending.size).toBe(0);
  });

  it('clamps the range to the ids loaded, and does nothing for an unknown key', async () => {
    const { store, asked } = setup();
    await store.getState().fetchRange(jobsKey(1), 0, 10);
    expect(asked).toEqual([]);
    await store.getState().fetchIds(jobsKey(1));
    await store.getState().fetchRange(jobsKey(1), 990, 5_000);
    expect(asked).toEqual([ids(991, 1_000)]);
  });

  it('does not ask twice for ids already on their way', async () => {
    const answers: Array<() => void> = [];
    const asked: number[][] = [];
    const fake = fakeApi({
      'jobs.ids': () => ({ ids: ids(1, 10), next: null, total: 10 }),
      'jobs.byIds': (input: { ids: number[] }) => {
        asked.push(input.ids);
        return new Promise<JobSummary[]>((resolve) =>
          answers.push(() => resolve(input.ids.map((id) => job(id)))),
        );
      },
    });
    const store = createAppStore(fake.api);
    await store.getState().fetchIds(jobsKey(1));
    const first = store.getState().fetchRange(jobsKey(1), 0, 5);
    const second = store.getState().fetchRange(jobsKey(1), 0, 10);
    expect(asked).toEqual([ids(1, 5), ids(6, 10)]);
    for (const answer of answers) answer();
    await Promise.all([first, second]);
    expect(store.getState().jobsById.size).toBe(10);
  });

  it('lays a state change that arrived during the fetch over the (older) answer', async () => {
    let answer: (jobs: JobSummary[]) => void = () => {};
    const fake = fakeApi({
      'jobs.ids': () => ({ ids: [1, 2], next: null, total: 2 }),
      'jobs.byIds': () => new Promise<JobSummary[]>((resolve) => (answer = resolve)),
    });
    const store = createAppStore(fake.api);
    await store.getState().fetchIds(jobsKey(1));
    const loading = store.getState().fetchRange(jobsKey(1), 0, 2);
    await Promise.resolve();
    store.setState((s) =>
      applyEvents(s, [
        { type: 'jobs.changed', payload: { changes: [[1, 'succeeded']], batches: [1] } },
      ]),
    );
    answer([job(1, 'running'), job(2, 'queued')]);
    await loading;
    expect(store.getState().jobsById.get(1)!.state).toBe('succeeded');
    expect(store.getState().jobsById.get(2)!.state).toBe('queued');
  });

  it('on a refused fetch, says why and lets the ids be asked again', async () => {
    let refuse = true;
    const fake = fakeApi({
      'jobs.ids': () => ({ ids: [1], next: null, total: 1 }),
      'jobs.byIds': () => {
        if (refuse) throw new Refusal({ code: 'internal', message: 'The store is busy.' });
        return [job(1)];
      },
    });
    const store = createAppStore(fake.api);
    await store.getState().fetchIds(jobsKey(1));
    await store.getState().fetchRange(jobsKey(1), 0, 1);
    expect(store.getState()).toMatchObject({ jobsError: 'The store is busy.' });
    expect(store.getState().jobsPending.size).toBe(0);
    refuse = false;
    await store.getState().fetchRange(jobsKey(1), 0, 1);
    expect(store.getState().jobsById.has(1)).toBe(true);
  });
});

describe('job list keys', () => {
  it('name the batch and the states in one order', () => {
    expect(jobsKey(3)).toBe('3:');
    expect(jobsKey(3, ['running', 'failed', 'running'])).toBe('3:failed,running');
    expect(parseJobsKey('3:failed,running')).toEqual({ batchId: 3, states: ['failed', 'running'] });
    expect(parseJobsKey('3:')).toEqual({ batchId: 3 });
  });

  it('refuse what jobsKey would not build', () => {
    for (const bad of ['', 'x:', '0:', '3:done', '3:failed,']) {
      expect(() => parseJobsKey(bad), bad).toThrow(/not a job list key/);
    }
  });
});
