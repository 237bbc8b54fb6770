import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiEvent, ApiEventOf, ApiEventType } from '../../../shared/api/events.ts';
import type { AppService } from '../../../main/core/app/app-service.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';

let dir: string;
const opened: TestService[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-changes-'));
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((each) => each.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function open(options: Parameters<typeof openTestService>[1] = {}) {
  const service = await openTestService(dir, options);
  opened.push(service);
  return service;
}

/** Every event the service delivers from now on, and a wait for one that matches. */
function listen(service: AppService) {
  const seen: ApiEvent[] = [];
  const waiters: Array<() => void> = [];
  service.events.subscribe(null, (batch) => {
    seen.push(...batch.events);
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    seen,
    async next<T extends ApiEventType>(
      type: T,
      matches: (event: ApiEventOf<T>) => boolean = () => true,
    ): Promise<ApiEventOf<T>> {
      for (;;) {
        const found = seen.find(
          (e): e is ApiEventOf<T> => e.type === type && matches(e as ApiEventOf<T>),
        );
        if (found) return found;
        await new Promise<void>((wake) => waiters.push(wake));
      }
    },
    clear: () => void seen.splice(0),
  };
}

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ prompt: `a heron ${i + 1}` }));
const held = { model: 'flux-schnell', size: '256x256' };

describe('every change is an event', () => {
  it('says which batches were renamed, moved, held, released and deleted', async () => {
    const { api, service } = await open();
    const events = listen(service);
    const one = await api.batches.create({
      source: { kind: 'rows', rows: rows(3) },
      defaults: held,
    });
    expect(
      (await events.next('batches.changed', (e) => e.payload.ids.includes(one.id))).payload,
    ).toEqual({ ids: [one.id], deleted: [] });
    const two = await api.batches.create({
      source: { kind: 'rows', rows: rows(3) },
      defaults: held,
    });
    await events.next('batches.changed', (e) => e.payload.ids.includes(two.id));
    for (const act of [
      () => api.batches.rename({ id: one.id, name: 'herons at dawn' }),
      () => api.batches.move({ id: two.id, position: 'front' }),
      () => api.batches.pause({ id: one.id }),
      () => api.batches.resume({ id: one.id }),
    ]) {
      events.clear();
      await act();
      const changed = await events.next('batches.changed');
      expect(changed.payload.deleted).toEqual([]);
      expect(changed.payload.ids).toHaveLength(1);
    }
    events.clear();
    await api.batches.delete({ id: two.id });
    expect((await events.next('batches.changed')).payload).toEqual({
      ids: [two.id],
      deleted: [two.id],
    });
  });

  it('says which jobs were held, released and moved, and which images became favourites', async () => {
    const { api, service } = await open();
    const events = listen(service);
    const batch = await api.batches.create({
      source: { kind: 'rows', rows: rows(4) },
      defaults: held,
    });
    const { ids } = await api.jobs.ids({ batchId: batch.id });
    for (const act of [
      () => api.jobs.hold({ ids: ids.slice(0, 2) }),
      () => api.jobs.release({ ids: ids.slice(0, 1) }),
      () => api.jobs.move({ ids: ids.slice(2), position: 'front' }),
    ]) {
      events.clear();
      const { changed } = await act();
      const updated = await events.next('jobs.updated');
      expect(updated.payload.ids).toHaveLength(changed);
      expect(updated.payload.batches).toEqual([batch.id]);
    }

    const finished = events.next('batch.finished', (e) => e.payload.batchId === batch.id);
    await api.jobs.release({ ids });
    await service.startQueue();
    await finished;
    const image = (await api.images.ids({})).ids[0]!;
    events.clear();
    await api.images.setFavorite({ ids: [image], favorite: true });
    expect((await events.next('images.changed')).payload).toEqual({
      ids: [image],
      batches: [batch.id],
    });
  });

  it('tells that a download failed for good: the image, fresh counts and the batch finished', async () => {
    const { api, service } = await open({ demoFaults: 'url-500:1' });
    const events = listen(service);
    await service.startQueue();
    const batch = await api.batches.create({
      source: { kind: 'rows', rows: rows(2) },
      defaults: { ...held, response_format: 'url' },
    });
    const finished = await events.next('batch.finished', (e) => e.payload.batchId === batch.id);
    expect(finished.payload.downloads).toMatchObject({ failed: 2, pending: 0, downloading: 0 });
    const failedIds = (await api.images.ids({ query: { downloadStates: ['failed'] } })).ids;
    const told = events.seen.flatMap((e) => (e.type === 'images.changed' ? e.payload.ids : []));
    expect(new Set(told)).toEqual(new Set(failedIds));
    const counts = events.seen.flatMap((e) =>
      e.type === 'progress' ? e.payload.batches.filter((b) => b.id === batch.id) : [],
    );
    expect(counts.at(-1)?.downloads.failed).toBe(2);
    // each job's row counts its failed download, and the windows were told to read it again
    const { ids: jobIds } = await api.jobs.ids({ batchId: batch.id });
    const jobs = await api.jobs.byIds({ ids: jobIds });
    expect(jobs.map((job) => [job.state, job.failedDownloads])).toEqual([
      ['succeeded', 1],
      ['succeeded', 1],
    ]);
    const updated = events.seen.flatMap((e) => (e.type === 'jobs.updated' ? e.payload.ids : []));
    expect(new Set(updated)).toEqual(new Set(jobIds));
    expect((await api.jobs.get({ id: jobIds[0]! })).failedDownloads).toBe(1);

    // retried, it waits again: the windows hear of it (and of its failing once more)
    events.clear();
    await api.images.retryDownloads({ ids: failedIds.slice(0, 1) });
    expect((await events.next('images.changed')).payload.ids).toEqual(failedIds.slice(0, 1));
    const retriedJob = (await api.images.get({ id: failedIds[0]! })).jobId;
    const jobTold = await events.next('jobs.updated', (e) => e.payload.ids.includes(retriedJob));
    expect(jobTold.payload.batches).toEqual([batch.id]);
    await events.next('batch.finished', (e) => e.payload.batchId === batch.id);
  }, 60_000);

  it('hears of changes another process made to the same data folder within a second or so', async () => {
    // One clock for both, as processes of one machine share one. Rows changed shortly before
    // a look are news at the next one too (a change is dated before it commits): the test
    // moves the clock on after each change, before the look that finds it.
    let now = Date.now();
    const later = () => void (now += 10_000);
    const here = await open({ foreignCheckMs: 50, now: () => now });
    const there = await open({ foreignCheckMs: 50, now: () => now });
    const events = listen(here.service);
    const batch = await there.api.batches.create({
      source: { kind: 'rows', rows: rows(4) },
      defaults: held,
    });
    later();
    await events.next('batches.changed', (e) => e.payload.ids.includes(batch.id));
    const counted = events.seen.flatMap((e) =>
      e.type === 'progress' ? e.payload.batches.filter((b) => b.id === batch.id) : [],
    );
    expect(counted.at(-1)?.jobs.queued).toBe(4);

    events.clear();
    await there.api.batches.rename({ id: batch.id, name: 'renamed elsewhere' });
    await events.next('batches.changed', (e) => e.payload.ids.includes(batch.id));
    expect((await here.api.batches.get({ id: batch.id })).name).toBe('renamed elsewhere');

    // held, released and moved there: which jobs, as a change made here says
    const { ids } = await there.api.jobs.ids({ batchId: batch.id });
    for (const [act, changed] of [
      [() => there.api.jobs.hold({ ids: ids.slice(0, 2) }), ids.slice(0, 2)],
      [() => there.api.jobs.release({ ids: ids.slice(1, 2) }), ids.slice(1, 2)],
      [() => there.api.jobs.move({ ids: ids.slice(3), position: 'front' }), ids.slice(3)],
      [() => there.api.jobs.move({ ids: ids.slice(2, 3), position: 'back' }), ids.slice(2, 3)],
    ] as const) {
      events.clear();
      await act();
      later();
      const updated = await events.next('jobs.updated');
      expect(updated.payload.batches).toEqual([batch.id]);
      expect(updated.payload.ids.toSorted()).toEqual(changed.toSorted());
    }

    // run there, then favourites and a deletion made there
    const finished = events.next('batch.finished', (e) => e.payload.batchId === batch.id);
    await there.api.jobs.release({ ids });
    await there.service.startQueue();
    await finished;
    const images = (await there.api.images.ids({})).ids;
    // a look after the run, the clock moved on from its last writes
    later();
    await there.api.batches.rename({ id: batch.id, name: 'ran elsewhere' });
    await events.next('batches.changed', (e) => e.payload.ids.includes(batch.id));
    events.clear();
    await there.api.images.setFavorite({ ids: images.slice(0, 2), favorite: true });
    later();
    const favourited = await events.next('images.changed');
    expect(favourited.payload.batches).toEqual([batch.id]);
    expect(favourited.payload.ids.toSorted()).toEqual(images.slice(0, 2).toSorted());
    // a deleted image leaves no row to say which: its batch as a whole
    events.clear();
    await there.api.images.delete({ ids: images.slice(3) });
    expect((await events.next('images.changed')).payload).toEqual({
      ids: [],
      batches: [batch.id],
    });

    events.clear();
    await there.api.batches.delete({ id: batch.id });
    expect((await events.next('batches.changed')).payload.deleted).toEqual([batch.id]);
  }, 60_000);
});

describe('what the bulk actions apply to', () => {
  it('counts a selection of never-sent jobs as the handlers act on it', async () => {
    const { api } = await open();
    const batch = await api.batches.create({
      source: { kind: 'rows', rows: rows(5) },
      defaults: held,
    });
    const { ids } = await api.jobs.ids({ batchId: batch.id });
    expect(await api.jobs.actionable({ ids })).toEqual({
      move: 5,
      hold: 5,
      release: 0,
      retry: 0,
      'retry-anyway': 0,
      'top-up': 0,
      'retry-downloads': 0,
      cancel: 5,
    });
    // the handlers change exactly what was counted
    expect(await api.jobs.retry({ ids, anyway: true })).toEqual({ changed: 0 });
    expect(await api.jobs.topUp({ ids })).toEqual({ prompts: 0, images: 0 });
    expect(await api.jobs.hold({ ids: ids.slice(0, 2) })).toEqual({ changed: 2 });
    expect(await api.jobs.actionable({ ids })).toMatchObject({ hold: 3, release: 2, move: 5 });
    expect(await api.jobs.cancel({ ids })).toEqual({ changed: 5 });
    expect(await api.jobs.actionable({ ids })).toMatchObject({ retry: 5, cancel: 0, move: 0 });
  });
});
