import { describe, expect, it } from 'vitest';
import { applyEvents, MAX_NOTICES } from '../../../renderer/src/store/apply-events.ts';
import { createAppStore } from '../../../renderer/src/store/index.ts';
import { jobsKey } from '../../../renderer/src/store/jobs-key.ts';
import type { AppState, FinishedNotice } from '../../../renderer/src/store/state.ts';
import type { ApiEvent } from '../../../shared/api/events.ts';
import {
  batch,
  dataOf,
  fakeApi,
  imageSummary,
  job,
  progress,
  zeroDownloads,
  zeroJobs,
} from './fake-api.ts';

/** A store state with batches 1 and 2 listed, jobs 10 and 11 cached, a list per key. */
function state(patch: Partial<AppState> = {}): AppState {
  const store = createAppStore(fakeApi().api);
  store.setState({
    batches: new Map([
      [2, batch(2, { queued: 3 })],
      [1, batch(1, { queued: 2 })],
    ]),
    batchIds: [2, 1],
    jobsById: new Map([
      [10, job(10, 'queued')],
      [11, job(11, 'running')],
    ]),
    jobIdsByKey: new Map([
      [jobsKey(1), { ids: [10, 11], next: null, total: 2, stale: false }],
      [jobsKey(1, ['failed']), { ids: [], next: null, total: 0, stale: false }],
      [jobsKey(2, ['failed']), { ids: [], next: null, total: 0, stale: false }],
    ]),
    ...patch,
  });
  return store.getState();
}

const progressEvent = (
  batches: Array<{ id: number; jobs: Partial<ReturnType<typeof zeroJobs>> }>,
  paused: AppState['paused'] = null,
): ApiEvent => ({
  type: 'progress',
  payload: {
    ...progress({ succeeded: 5 }),
    paused,
    batches: batches.map(({ id, jobs }) => ({
      id,
      jobs: { ...zeroJobs(), ...jobs },
      downloads: zeroDownloads(),
    })),
  },
});

describe('applyEvents', () => {
  it('returns an empty patch for no events, and never mutates the state', () => {
    const before = state({ jobsPending: new Map([[12, null]]), batchCountsLate: new Map() });
    const snapshot = dataOf(before);
    expect(applyEvents(before, [])).toEqual({});
    applyEvents(before, [
      progressEvent([{ id: 1, jobs: { succeeded: 2 } }]),
      {
        type: 'jobs.changed',
        payload: {
          changes: [
            [10, 'failed'],
            [12, 'failed'],
          ],
          batches: [1],
        },
      },
      { type: 'resync', payload: { reason: 'behind' } },
    ]);
    expect(dataOf(before)).toEqual(snapshot);
  });

  it('takes the queue’s progress and pause from a progress event, and patches batch counts', () => {
    const before = state();
    const paused = { reason: 'Paused by you', code: null, kind: 'manual' as const };
    const patch = applyEvents(before, [progressEvent([{ id: 1, jobs: { succeeded: 2 } }], paused)]);
    expect(patch.progress).toEqual(progress({ succeeded: 5 }));
    expect(patch.paused).toEqual(paused);
    expect(patch.batches!.get(1)).toMatchObject({ jobs: { succeeded: 2, queued: 0 }, jobCount: 2 });
    // the untouched batch keeps its object, so its row does not re-render
    expect(patch.batches!.get(2)).toBe(before.batches.get(2));
  });

  it('copies no map when counts did not change', () => {
    const patch = applyEvents(state(), [progressEvent([{ id: 1, jobs: { queued: 2 } }])]);
    expect(patch.batches).toBeUndefined();
    expect(patch.batchesStale).toBeUndefined();
  });

  it('flags the list stale for a batch newer than any listed, not for an older one', () => {
    expect(applyEvents(state(), [progressEvent([{ id: 3, jobs: {} }])]).batchesStale).toBe(true);
    const older = state({ batches: new Map([[5, batch(5)]]), batchIds: [5] });
    expect(applyEvents(older, [progressEvent([{ id: 4, jobs: {} }])]).batchesStale).toBeUndefined();
  });

  it('keeps counts for a page that is loading, to lay over its older answer', () => {
    const loading = state({ batchCountsLate: new Map() });
    const patch = applyEvents(loading, [progressEvent([{ id: 7, jobs: { running: 1 } }])]);
    expect(patch.batchCountsLate!.get(7)!.jobs.running).toBe(1);
    expect(loading.batchCountsLate!.size).toBe(0);
  });

  it('patches the state of cached jobs only, and never the same value twice', () => {
    const before = state();
    const patch = applyEvents(before, [
      {
        type: 'jobs.changed',
        payload: {
          changes: [
            [10, 'running'],
            [11, 'running'],
            [99, 'failed'],
          ],
          batches: [1],
        },
      },
    ]);
    expect(patch.jobsById!.get(10)!.state).toBe('running');
    expect(patch.jobsById!.get(11)).toBe(before.jobsById.get(11));
    expect(patch.jobsById!.has(99)).toBe(false);
    expect(before.jobsById.get(10)!.state).toBe('queued');
  });

  it('copies no job map when nothing cached changed', () => {
    const patch = applyEvents(state(), [
      { type: 'jobs.changed', payload: { changes: [[11, 'running']], batches: [] } },
    ]);
    expect(patch.jobsById).toBeUndefined();
    expect(patch.jobIdsByKey).toBeUndefined();
  });

  it('remembers the new state of a job whose details are being fetched', () => {
    const patch = applyEvents(state({ jobsPending: new Map([[12, null]]) }), [
      { type: 'jobs.changed', payload: { changes: [[12, 'succeeded']], batches: [] } },
    ]);
    expect(patch.jobsPending!.get(12)).toBe('succeeded');
  });

  it('marks the state-filtered lists of the batches touched stale, not the others', () => {
    const patch = applyEvents(state(), [
      { type: 'jobs.changed', payload: { changes: [[10, 'failed']], batches: [1] } },
    ]);
    expect(patch.jobIdsByKey!.get(jobsKey(1, ['failed']))!.stale).toBe(true);
    expect(patch.jobIdsByKey!.get(jobsKey(1))!.stale).toBe(false);
    expect(patch.jobIdsByKey!.get(jobsKey(2, ['failed']))!.stale).toBe(false);
  });

  it('pauses and resumes the queue', () => {
    const info = { reason: 'The key was refused', code: 'invalid_api_key', kind: 'auth' as const };
    expect(applyEvents(state(), [{ type: 'queue.paused', payload: info }]).paused).toEqual(info);
    const both = applyEvents(state(), [
      { type: 'queue.paused', payload: info },
      { type: 'queue.resumed', payload: {} },
    ]);
    expect(both.paused).toBeNull();
  });

  it('marks a finished batch, sets its counts and keeps one notice per batch', () => {
    const notice = (batchId: number, succeeded = 2): FinishedNotice => ({
      batchId,
      name: `batch ${batchId}`,
      jobs: { ...zeroJobs(), succeeded },
      failures: {},
      downloads: zeroDownloads(),
      partial: 0,
    });
    const event = (n: FinishedNotice): ApiEvent => ({ type: 'batch.finished', payload: n });
    const patch = applyEvents(state(), [event(notice(1, 1)), event(notice(2)), event(notice(1))]);
    expect([...patch.finishedBatches!]).toEqual([1, 2]);
    expect(patch.finishedNotices!.map((n) => [n.batchId, n.jobs.succeeded])).toEqual([
      [2, 2],
      [1, 2],
    ]);
    expect(patch.batches!.get(1)!.jobs.succeeded).toBe(2);
    const many = Array.from({ length: MAX_NOTICES + 5 }, (_, i) => event(notice(100 + i)));
    expect(applyEvents(state(), many).finishedNotices).toHaveLength(MAX_NOTICES);
  });

  it('takes limits and key status, and flags settings for a reload', () => {
    const limits = { concurrency: 4, current: 4, requestsPerMinute: 60 };
    const key = {
      set: true,
      last4: '1a2b',
      source: 'memory' as const,
      storable: false,
      refusal: null,
    };
    const patch = applyEvents(state(), [
      { type: 'limits.changed', payload: limits },
      { type: 'key.changed', payload: key },
      { type: 'settings.changed', payload: {} },
    ]);
    expect(patch).toEqual({ limits, keyStatus: key, settingsStale: true });
  });

  it('on resync, asks every view to refetch', () => {
    const patch = applyEvents(state(), [
      { type: 'resync', payload: { reason: 'behind' } },
      { type: 'resync', payload: { reason: 'far behind' } },
    ]);
    expect(patch).toMatchObject({
      resyncs: 2,
      resyncReason: 'far behind',
      batchesStale: true,
      settingsStale: true,
    });
    expect([...patch.jobIdsByKey!.values()].every((list) => list.stale)).toBe(true);
  });

  it('counts images written for the gallery, and drops a retried one shown as failed', () => {
    const written: ApiEvent = {
      type: 'images.written',
      payload: {
        images: [
          { id: 1, jobId: 10, batchId: 1, relPath: 'a.png', thumbRelPath: null },
          { id: 2, jobId: 11, batchId: 1, relPath: 'b.png', thumbRelPath: null },
        ],
      },
    };
    expect(applyEvents(state(), [written])).toEqual({ galleryFresh: 2 });
    const failed = { ...imageSummary(2), downloadState: 'failed' as const };
    const patch = applyEvents(state({ galleryImages: new Map([[2, failed]]) }), [written]);
    expect(patch.galleryFresh).toBe(2);
    expect(patch.galleryStale).toBe(true);
    expect(patch.galleryImages?.has(2)).toBe(false);
  });

  it('takes deleted images out of the gallery list, its cache and the selection', () => {
    const deleted: ApiEvent = { type: 'images.deleted', payload: { ids: [2, 9] } };
    const patch = applyEvents(
      state({
        galleryIds: [3, 2, 1],
        galleryTotal: 3,
        galleryImages: new Map([[2, imageSummary(2)]]),
        gallerySelection: { selected: new Set([2, 3]), anchor: 2 },
      }),
      [deleted],
    );
    expect(patch.galleryIds).toEqual([3, 1]);
    expect(patch.galleryTotal).toBe(2);
    expect(patch.galleryImages?.size).toBe(0);
    expect(patch.gallerySelection).toEqual({ selected: new Set([3]), anchor: null });
  });
});
