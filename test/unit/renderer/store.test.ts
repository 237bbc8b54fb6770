import { describe, expect, it } from 'vitest';
import { applyEvents } from '../../../renderer/src/store/apply-events.ts';
import { createAppStore } from '../../../renderer/src/store/index.ts';
import {
  selectBatchList,
  selectDemoNotice,
  selectOverall,
  selectQueueStatus,
} from '../../../renderer/src/store/selectors.ts';
import type { AppInfo, BatchSummary, QueueState } from '../../../renderer/src/store/state.ts';
import type { ApiEvent } from '../../../shared/api/events.ts';
import { batch, fakeApi, progress, Refusal, zeroDownloads, zeroJobs } from './fake-api.ts';

const queueState = (patch: Partial<QueueState> = {}): QueueState => ({
  paused: null,
  engine: 'running',
  runner: null,
  problem: null,
  limits: { concurrency: 8, current: 8, requestsPerMinute: null },
  progress: progress({ queued: 3, succeeded: 1 }),
  ...patch,
});

const countsEvent = (id: number, succeeded: number): ApiEvent => ({
  type: 'progress',
  payload: {
    ...progress({ succeeded }),
    paused: null,
    batches: [{ id, jobs: { ...zeroJobs(), succeeded }, downloads: zeroDownloads() }],
  },
});

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('the queue slice', () => {
  it('loads the queue state, and resumes a paused queue', async () => {
    const paused = {
      reason: 'The balance ran out',
      code: 'insufficient_quota',
      kind: 'balance' as const,
    };
    const fake = fakeApi({
      'queue.state': () => queueState({ paused }),
      'queue.resume': () => null,
    });
    const store = createAppStore(fake.api);
    await store.getState().loadQueue();
    expect(selectQueueStatus(store.getState())).toBe('paused');
    expect(store.getState().paused).toEqual(paused);
    await store.getState().resumeQueue();
    expect(fake.calls.map((c) => c.name)).toEqual(['queue.state', 'queue.resume']);
    expect(selectQueueStatus(store.getState())).toBe('running');
  });

  it('says why a queue call failed', async () => {
    const fake = fakeApi({
      'queue.resume': () => {
        throw new Refusal({ code: 'key-missing', message: 'No API key is set for this gateway.' });
      },
    });
    const store = createAppStore(fake.api);
    await store.getState().resumeQueue();
    expect(store.getState().queueError).toBe('No API key is set for this gateway.');
  });

  it('keeps the progress events gave while queue.state was on its way', async () => {
    const answer = deferred<QueueState>();
    const store = createAppStore(fakeApi({ 'queue.state': () => answer.promise }).api);
    const loading = store.getState().loadQueue();
    store.setState((s) => ({ ...applyEvents(s, [countsEvent(1, 50)]), eventSeq: s.eventSeq + 1 }));
    answer.resolve(queueState());
    await loading;
    expect(store.getState().progress!.jobs.succeeded).toBe(50);
    expect(store.getState().engine).toBe('running');
    expect(store.getState().limits).toEqual(queueState().limits);
  });

  it('sums overall progress from the job counts', () => {
    const store = createAppStore(fakeApi().api);
    store.setState({
      progress: {
        ...progress({ queued: 5, running: 2, succeeded: 10, failed: 3 }),
        jobsPerSecond: 12.5,
      },
    });
    expect(selectOverall(store.getState())).toEqual({
      done: 13,
      total: 20,
      failed: 3,
      jobsPerSecond: 12.5,
    });
  });
});

describe('the batches slice', () => {
  it('loads the first page in order, then the next', async () => {
    const fake = fakeApi({
      'batches.list': (input: { cursor: string | null }) =>
        input.cursor
          ? { items: [batch(1)], next: null }
          : { items: [batch(3), batch(2)], next: 'p2' },
    });
    const store = createAppStore(fake.api);
    await store.getState().loadBatches();
    expect(store.getState().batchIds).toEqual([3, 2]);
    await store.getState().loadMoreBatches();
    expect(selectBatchList(store.getState()).map((b) => b.id)).toEqual([3, 2, 1]);
    expect(store.getState()).toMatchObject({ batchesNext: null, batchesLoading: false });
  });

  it('lays counts that arrived during the load over its (older) answer', async () => {
    const answer = deferred<{ items: BatchSummary[]; next: null }>();
    const store = createAppStore(fakeApi({ 'batches.list': () => answer.promise }).api);
    const loading = store.getState().loadBatches();
    store.setState((s) => applyEvents(s, [countsEvent(2, 7)]));
    answer.resolve({ items: [batch(2, { queued: 7 }), batch(1, { queued: 1 })], next: null });
    await loading;
    expect(store.getState().batches.get(2)).toMatchObject({
      jobs: { succeeded: 7, queued: 0 },
      jobCount: 7,
    });
    expect(store.getState().batches.get(1)!.jobs.queued).toBe(1);
    expect(store.getState().batchCountsLate).toBeNull();
  });

  it('clears the stale flag when it reloads, and dismisses notices one by one', async () => {
    const store = createAppStore(
      fakeApi({ 'batches.list': () => ({ items: [], next: null }) }).api,
    );
    store.setState({ batchesStale: true });
    await store.getState().loadBatches();
    expect(store.getState().batchesStale).toBe(false);
    const notice = (batchId: number) => ({
      batchId,
      name: 'b',
      jobs: zeroJobs(),
      failures: {},
      downloads: zeroDownloads(),
      partial: 0,
    });
    store.setState({ finishedNotices: [notice(1), notice(2)] });
    store.getState().dismissNotice(1);
    expect(store.getState().finishedNotices.map((n) => n.batchId)).toEqual([2]);
  });
});

describe('the app slice', () => {
  const info: AppInfo = {
    version: '0.1.0',
    host: 'web',
    demo: true,
    notice: 'Demo mode: images come from the built-in simulator, nothing is charged.',
    gateway: null,
    capabilities: { pathImport: true, reveal: false, openWithViewer: false, notifications: false },
    recoveredSettings: null,
  };

  it('loads app info, settings and key status, and shows the demo notice', async () => {
    const key = { set: false, last4: null, source: null, storable: false, refusal: null };
    const fake = fakeApi({
      'app.info': () => info,
      'settings.get': () => ({ concurrency: 8 }),
      'key.status': () => key,
    });
    const store = createAppStore(fake.api);
    await store.getState().loadApp();
    expect(store.getState()).toMatchObject({ info, keyStatus: key, appError: null });
    expect(selectDemoNotice(store.getState())).toBe(info.notice);
  });

  it('says when the host cannot be reached', async () => {
    const fake = fakeApi({
      'app.info': () => {
        throw new Refusal({ code: 'internal', message: "Atelier's host is not answering." });
      },
    });
    const store = createAppStore(fake.api);
    await store.getState().loadApp();
    expect(store.getState().appError).toBe("Atelier's host is not answering.");
    expect(fake.calls.map((c) => c.name)).toEqual(['app.info']);
  });
});
