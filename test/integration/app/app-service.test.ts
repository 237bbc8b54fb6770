import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { ApiEvent, EventBatch } from '../../../shared/api/events.ts';
import type { AppService } from '../../../main/core/app/app-service.ts';
import { dispatch } from '../../../main/core/app/dispatch.ts';
import type { Api } from '../../../shared/api/types.ts';
import { callEveryMethod, everyMethod } from '../../support/every-method.ts';
import { startGateway } from '../../../main/simulator/index.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';

let dir: string;
let opened: TestService;
let service: AppService;
let api: Api;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-app-'));
  opened = await openTestService(dir);
  ({ service, api } = opened);
});
afterEach(async () => {
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Collects events until `done` says so. */
function until(done: (events: ApiEvent[]) => boolean, cursor: string | null = null) {
  const seen: ApiEvent[] = [];
  let last = '';
  return new Promise<{ events: ApiEvent[]; cursor: string }>((resolve) => {
    const stop = service.events.subscribe(cursor, (batch: EventBatch) => {
      seen.push(...batch.events);
      last = batch.cursor;
      if (done(seen)) {
        stop();
        resolve({ events: seen, cursor: last });
      }
    });
  });
}

const rows = (n: number, word = 'fox') =>
  Array.from({ length: n }, (_, i) => ({ prompt: `a ${i % 2 ? word : 'owl'} number ${i + 1}` }));

describe('the application service', () => {
  it('starts the demo, runs a composed batch to the end and tells its clients', async () => {
    const finished = until((events) => events.some((e) => e.type === 'batch.finished'));
    await service.startQueue();
    const state = await api.queue.state({});
    expect(state).toMatchObject({ engine: 'running', problem: null, paused: null });
    const batch = await api.batches.create({
      source: { kind: 'rows', rows: rows(12) },
      name: 'foxes',
      defaults: { model: 'flux-schnell', size: '256x256', response_format: 'b64_json' },
      position: 'back',
    });
    expect(batch).toMatchObject({ name: 'foxes', jobCount: 12 });
    const { events } = await finished;
    const end = events.find((e) => e.type === 'batch.finished');
    expect(end?.payload).toMatchObject({ batchId: batch.id, jobs: { succeeded: 12 } });
    const written = events.flatMap((e) => (e.type === 'images.written' ? e.payload.images : []));
    expect(written).toHaveLength(12);
    const changed = events.filter((e) => e.type === 'jobs.changed');
    expect(changed.length).toBeLessThan(12 * 3); // coalesced, never one per transition

    const page = await api.images.page({ query: { text: 'fox' }, limit: 4 });
    expect(page.items).toHaveLength(4);
    expect(page.items.every((image) => image.prompt.includes('fox'))).toBe(true);
    const all = await api.images.ids({ query: { text: 'fox' } });
    expect(all.total).toBe(6);
    const next = await api.images.page({
      query: { text: 'fox' },
      limit: 4,
      cursor: page.next,
    });
    expect(next.items.map((i) => i.id)).toEqual(all.ids.slice(4));
    // a cursor belongs to its list, filter and order: anything else is refused, never misread
    await expect(
      api.images.page({ query: { text: 'fox', order: 'oldest' }, cursor: page.next }),
    ).rejects.toMatchObject({ code: 'invalid-argument' });
    const batches = await api.batches.list({ limit: 1 });
    await expect(
      api.images.page({ query: {}, cursor: batches.next ?? page.next }),
    ).rejects.toMatchObject({ code: 'invalid-argument' });

    const ids = await api.jobs.ids({ batchId: batch.id, states: ['succeeded'] });
    expect(ids.total).toBe(12);
    const [job] = await api.jobs.byIds({ ids: ids.ids.slice(0, 1) });
    const attempts = await api.jobs.attempts({ jobId: job!.id });
    expect(attempts.items[0]).toMatchObject({ httpStatus: 200, outcome: 'succeeded' });
    expect(attempts.items[0]!.requestId).toBeTruthy();
    const detail = await api.jobs.get({ id: job!.id });
    expect(detail.images[0]).toMatchObject({ downloadState: 'done', jobId: job!.id });

    await api.images.setFavorite({ ids: [all.ids[0]!], favorite: true });
    expect((await api.images.count({ query: { favorite: true } })).total).toBe(1);
  });

  it('catches a client up from its cursor with what it missed, and no more', async () => {
    await service.startQueue();
    const first = until((events) => events.some((e) => e.type === 'batch.finished'));
    await api.batches.create({
      source: { kind: 'rows', rows: rows(3) },
      defaults: { model: 'flux-schnell', size: '256x256' },
      position: 'back',
    });
    const { cursor } = await first;
    // nobody listening while the second batch runs
    const b = await api.batches.create({
      source: { kind: 'rows', rows: rows(5) },
      defaults: { model: 'flux-schnell', size: '256x256' },
      position: 'front',
    });
    await until((events) => events.some((e) => e.type === 'batch.finished'));
    const replay = await until(() => true, cursor);
    const images = replay.events.flatMap((e) =>
      e.type === 'images.written' ? e.payload.images : [],
    );
    expect(images.map((i) => i.batchId)).toEqual([b.id, b.id, b.id, b.id, b.id]);
    expect(replay.events.some((e) => e.type === 'resync')).toBe(false);
  });

  it('opens without a key for a real gateway, says why the queue waits, and starts once one is set', async () => {
    const real = await startGateway({ latencyMs: 0 });
    onTestFinished(() => real.close());
    await api.settings.update({
      profiles: [
        {
          name: 'Mine',
          baseUrl: real.url,
          headers: [],
          requestIdHeader: 'X-Svc-Request-Id',
          advancedSegment: 'svc',
          partialKey: 'svc_partial',
        },
      ],
      gateway: { kind: 'remote', profile: 'Mine' },
    });
    expect((await api.queue.state({})).problem).toMatchObject({ code: 'key-missing' });
    await expect(api.key.set({ key: 'not-a-key' })).rejects.toMatchObject({
      code: 'key-invalid',
    });
    const status = await api.key.set({ key: real.key });
    expect(status).toEqual({
      set: true,
      last4: real.key.slice(-4),
      source: 'memory',
      storable: false,
      refusal: expect.any(String),
      profile: null,
      shared: false,
      locked: null,
    });
    expect(await api.queue.state({})).toMatchObject({ engine: 'running', problem: null });
    expect(await api.key.test({})).toMatchObject({ ok: true });
    expect((await api.app.info({})).gateway).toEqual({ name: 'Mine', baseUrl: real.url });
    // an error message never carries the key, whatever quoted it
    const error = service.toApiError(new Error(`upstream said ${real.key} is fine`));
    expect(JSON.stringify(error)).not.toContain(real.key);
  });

  it('answers every method of the contract through dispatch, outputs checked', async () => {
    await service.startQueue();
    const batch = await api.batches.create({
      source: { kind: 'text', fileName: 'p.txt', text: 'a red fox\na blue owl\n' },
      defaults: { model: 'flux-schnell', size: '256x256' },
      position: 'back',
    });
    await until((events) => events.some((e) => e.type === 'batch.finished'));
    const [imageId] = (await api.images.ids({ query: {} })).ids;
    const [jobId] = (await api.jobs.ids({ batchId: batch.id })).ids;
    const failures = await callEveryMethod(
      everyMethod({
        batchId: batch.id,
        jobId: jobId!,
        imageId: imageId!,
        libraryDir: path.join(dir, 'library'),
      }),
      (area, method, input) =>
        dispatch(service.api, area, method, input, {
          toApiError: (e) => service.toApiError(e),
          checkOutput: true,
        }),
    );
    expect(failures).toEqual([]);
  });
});
