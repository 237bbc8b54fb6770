import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startGateway,
  type GatewayOptions,
  type RunningGateway,
} from '../../../main/simulator/index.ts';
import type { ApiEvent, ApiEventOf } from '../../../shared/api/events.ts';
import type { Api } from '../../../shared/api/types.ts';
import { useGateway } from '../../support/remote-gateway.ts';
import {
  openTestService,
  type TestService,
  type TestServiceOptions,
} from '../../support/test-service.ts';

// Video jobs as the queue shows them, through the application service on a real SQLite file
// and real HTTP to the simulator: the platform's status and progress beside the job's state,
// the task and request ids, overdue with an injected clock, polling resumed after a restart,
// and a key without access to the video model.

type VideoChange = ApiEventOf<'videos.changed'>['payload']['jobs'][number];

const FAST_POLL = { videoPoll: { initialMs: 20, maxMs: 40, overdueMaxMs: 80 } };
const VIDEO_ROW = { prompt: 'waves at dusk', model: 'sora-2', size: '720x1280', seconds: '4' };
const MINUTE = 60_000;

let dir: string;
const open: TestService[] = [];
const gateways: RunningGateway[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-videos-'));
});
afterEach(async () => {
  for (const service of open.splice(0)) await service.close();
  await Promise.all(gateways.splice(0).map((g) => g.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function service(options: TestServiceOptions = {}): Promise<TestService> {
  const opened = await openTestService(dir, { engine: FAST_POLL, ...options });
  open.push(opened);
  return opened;
}

async function simulator(options: GatewayOptions): Promise<RunningGateway> {
  const gateway = await startGateway({ latencyMs: 0, ...options });
  gateways.push(gateway);
  return gateway;
}

/** Every event the service sends from now on, and a way to wait for one. */
function listen(opened: TestService) {
  const events: ApiEvent[] = [];
  const waiters: Array<() => void> = [];
  opened.service.events.subscribe(null, (batch) => {
    events.push(...batch.events);
    for (const wake of waiters.splice(0)) wake();
  });
  const until = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (done() ? resolve() : waiters.push(check));
      check();
    });
  const videos = () => events.flatMap((e) => (e.type === 'videos.changed' ? e.payload.jobs : []));
  return {
    events,
    videos,
    /** Waits for a video change that passes `test`. */
    async video(test: (change: VideoChange) => boolean): Promise<VideoChange> {
      await until(() => videos().some(test));
      return videos().find(test)!;
    },
    finished: () => until(() => events.some((e) => e.type === 'batch.finished')),
    paused: () => until(() => events.some((e) => e.type === 'queue.paused')),
  };
}

async function jobOf(api: Api, batchId: number) {
  const { ids } = await api.jobs.ids({ batchId });
  const [job] = await api.jobs.byIds({ ids });
  return job!;
}

describe('video jobs in the queue', () => {
  it("show the platform's status and progress beside the job's state, with the task and request ids, as they change", async () => {
    const gateway = await simulator({ videoDurationMs: 800 });
    const opened = await service();
    const { api } = opened;
    await useGateway(api, gateway);
    const seen = listen(opened);
    const batch = await api.batches.create({ source: { kind: 'rows', rows: [VIDEO_ROW] } });
    await seen.finished();

    const [submission] = gateway.ledger.entries();
    const changes = seen.videos();
    const running = changes.filter((c) => c.state === 'running');
    expect(running.length).toBeGreaterThan(2);
    const progress = running.map((c) => c.progress ?? 0);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(
      running.some((c) => c.phase === 'in-progress' && c.progress! > 0 && c.progress! < 100),
    ).toBe(true);
    for (const change of running) {
      expect(change).toMatchObject({
        batchId: batch.id,
        taskId: submission!.requestId.replace(/^req_/, 'video_'),
        requestId: submission!.requestId,
        overdue: false,
      });
      expect(change.checkRequestId).not.toBe(submission!.requestId);
      expect(change.elapsedMs).toBeGreaterThanOrEqual(0);
    }

    const job = await jobOf(api, batch.id);
    expect(job).toMatchObject({ kind: 'video', state: 'succeeded' });
    expect(job.video).toMatchObject({
      phase: 'succeeded',
      platformStatus: 'SUCCESS',
      progress: 100,
      taskId: running[0]!.taskId,
      requestId: submission!.requestId,
      overdue: false,
      overdueSince: null,
    });
    // from the submission to the end
    expect(job.video!.elapsedMs).toBe(job.finishedAt! - job.video!.submittedAt!);
    expect(job.video!.elapsedMs).toBeGreaterThan(0);
    expect((await api.jobs.get({ id: job.id })).video).toEqual(job.video);
    // an image job has no such field
    const images = await api.batches.create({
      source: { kind: 'rows', rows: [{ prompt: 'x', model: 'flux-schnell', size: '16x16' }] },
    });
    expect(await jobOf(api, images.id)).not.toHaveProperty('video');
  });

  it('past its usual time: "overdue: checking" with its elapsed time, still polled, never resubmitted (injected clock)', async () => {
    const start = Date.UTC(2030, 0, 1);
    let clock = start;
    const now = () => clock;
    const gateway = await simulator({ videoDurationMs: 10 * MINUTE, now });
    const opened = await service({ now });
    const { api } = opened;
    await api.models.saveUserEntries({
      entries: [
        { kind: 'video', id: 'sora-2', seconds: ['4'], sizes: ['720x1280'], usualSeconds: 60 },
      ],
    });
    await useGateway(api, gateway);
    const seen = listen(opened);
    const batch = await api.batches.create({ source: { kind: 'rows', rows: [VIDEO_ROW] } });
    const first = await seen.video((c) => c.taskId !== null);
    expect(first).toMatchObject({ overdue: false, submittedAt: start, elapsedMs: 0 });

    clock = start + 3 * MINUTE;
    const overdue = await seen.video((c) => c.overdue);
    expect(overdue).toMatchObject({
      state: 'running',
      phase: 'in-progress',
      progress: 30,
      overdueSince: start + 3 * MINUTE,
      elapsedMs: 3 * MINUTE,
    });
    const row = await jobOf(api, batch.id);
    expect(row).toMatchObject({
      state: 'running',
      video: { overdue: true, elapsedMs: 3 * MINUTE },
    });
    // still checked: new checks keep coming while overdue
    const checks = () =>
      new Set(
        seen
          .videos()
          .filter((c) => c.overdue)
          .map((c) => c.checkRequestId),
      );
    const checkedWhileOverdue = checks().size;
    await seen.video(() => checks().size >= checkedWhileOverdue + 2);

    clock = start + 11 * MINUTE;
    await seen.finished();
    expect((await jobOf(api, batch.id)).video).toMatchObject({
      phase: 'succeeded',
      overdue: false,
      overdueSince: start + 3 * MINUTE,
      elapsedMs: 11 * MINUTE,
    });
    expect(gateway.ledger.entries()).toHaveLength(1);
  });

  it('polling resumes after a restart of the service on the same data folder: no second submission', async () => {
    const gateway = await simulator({ videoDurationMs: 1500 });
    const first = await service();
    await useGateway(first.api, gateway);
    const seen = listen(first);
    const batch = await first.api.batches.create({ source: { kind: 'rows', rows: [VIDEO_ROW] } });
    const submitted = await seen.video((c) => c.taskId !== null);
    // quitting: the task is paid for and left to the next start
    await first.close();
    open.splice(open.indexOf(first), 1);

    const second = await service();
    // before the queue runs again, the row says where the task stood
    expect(await jobOf(second.api, batch.id)).toMatchObject({
      state: 'running',
      video: { taskId: submitted.taskId, submittedAt: submitted.submittedAt },
    });
    const again = listen(second);
    // (keys are kept in memory in tests: set again, the queue starts and recovers)
    await second.api.key.set({ key: gateway.key });
    await again.finished();
    const job = await jobOf(second.api, batch.id);
    expect(job).toMatchObject({
      state: 'succeeded',
      tries: 1,
      video: { phase: 'succeeded', taskId: submitted.taskId },
    });
    expect(again.videos().some((c) => c.jobId === job.id && c.state === 'running')).toBe(true);
    expect(gateway.ledger.entries()).toHaveLength(1);
    expect((await second.api.jobs.attempts({ jobId: job.id })).items).toHaveLength(1);
  });

  it("without access to the video model: the check says so first, and the gateway's refusal is on the job", async () => {
    const key = 'sk-no-video-0000000000000000';
    const gateway = await simulator({ keys: [{ key, models: ['flux-schnell', 'gpt-4o-mini'] }] });
    const opened = await service();
    const { api } = opened;
    await useGateway(api, gateway, key);
    const check = await api.batches.check({ source: { kind: 'rows', rows: [VIDEO_ROW] } });
    expect(check.warnings).toEqual([
      {
        model: 'sora-2',
        message: expect.stringContaining(
          "The gateway's list of models for this key leaves out sora-2.",
        ),
      },
    ]);
    const images = await api.batches.check({
      source: { kind: 'rows', rows: [{ prompt: 'x', model: 'flux-schnell', size: '16x16' }] },
    });
    expect(images.warnings).toBeUndefined();

    const seen = listen(opened);
    const batch = await api.batches.create({ source: { kind: 'rows', rows: [VIDEO_ROW] } });
    await seen.paused();
    const job = await jobOf(api, batch.id);
    expect(job).toMatchObject({ state: 'queued', errorCode: 'model_not_allowed' });
    expect(job.errorMessage).toContain(
      '403 model_not_allowed: This API key is not allowed to use model "sora-2".',
    );
    expect(job.video).toMatchObject({ phase: 'waiting', taskId: null });
    expect((await api.queue.state({})).paused).toMatchObject({ kind: 'permission' });
  });

  it('a batch says how many of its jobs make videos: what its results are called', async () => {
    const { api } = await service();
    const image = { prompt: 'a still', model: 'flux-schnell', size: '16x16' };
    const create = (rows: Array<typeof image | typeof VIDEO_ROW>) =>
      api.batches.create({ source: { kind: 'rows', rows }, paused: true });
    const videos = await create([VIDEO_ROW, { ...VIDEO_ROW, prompt: 'rain on a pond' }]);
    const both = await create([VIDEO_ROW, image, image]);
    const stills = await create([image]);
    expect([videos.videos, both.videos, stills.videos]).toEqual([2, 1, 0]);
    const { items } = await api.batches.list({});
    expect(items.map((b) => [b.id, b.videos])).toEqual([
      [stills.id, 0],
      [both.id, 1],
      [videos.id, 2],
    ]);
    expect((await api.batches.get({ id: both.id })).videos).toBe(1);
  });

  it("refuses a duration or size the video model's entry does not list, by row", async () => {
    const opened = await service();
    const check = await opened.api.batches.check({
      source: {
        kind: 'rows',
        rows: [VIDEO_ROW, { ...VIDEO_ROW, seconds: '7' }, { ...VIDEO_ROW, size: '640x480' }],
      },
    });
    expect(check).toMatchObject({ jobs: 1, bad: 2 });
    expect(check.errors).toEqual([
      { line: 2, code: 'model', message: 'sora-2 makes videos of 4, 8, 12 seconds; 7 was asked.' },
      {
        line: 3,
        code: 'model',
        message: 'sora-2 makes videos of size 720x1280, 1280x720; 640x480 was asked.',
      },
    ]);
  });
});
