import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  SIMULATED_FAIL_REASON,
  SIMULATED_QUOTA_REASON,
} from '../../../main/simulator/video/tasks.ts';
import { createCatalogue } from '../../../shared/gateway/catalogue.ts';
import type { ImageWritten } from '../../../main/core/engine/download.ts';
import { thumbnailPath } from '../../../main/core/library/thumbnail.ts';
import { captureLogger } from '../../support/capture-logger.ts';
import {
  assertLegalPath,
  engineRig,
  jobsOf,
  sha256File,
  type EngineRig,
  resumeAfterFix,
} from '../../support/engine-harness.ts';
import { pollUntil } from '../../support/poll-until.ts';

// Video jobs: submit once, poll, fetch the content; a submitted task is never resubmitted.

let rig: EngineRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

const VIDEO = {
  kind: 'video' as const,
  model: 'sora-2',
  size: '720x1280',
  params: { seconds: '4' },
};
const FAST = {
  gateway: { videoDurationMs: 100 },
  engine: { videoPoll: { initialMs: 10, maxMs: 40 } },
};
/** A model whose document requires the task-style API: POST /v1/video/generations. */
const KLING = {
  kind: 'video' as const,
  model: 'kling-v2',
  size: '1280x720',
  params: { seconds: '5' },
};
const KLING_ENTRY = {
  kind: 'video' as const,
  id: 'kling-v2',
  submitPath: 'video-generations' as const,
  seconds: ['5', '10'],
  sizes: ['1280x720', '720x1280', '1024x1024'],
};
/** The simulator names a task after the request that submitted it. */
const taskIdOf = (requestId: string) => requestId.replace(/^req_/, 'video_');

describe('video jobs', () => {
  it('submits, polls until SUCCESS and writes the content as an .mp4', async () => {
    rig = await engineRig(FAST);
    const batch = rig.batch([VIDEO]);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    const [job] = jobsOf(rig.store, batch.id);
    expect(job).toMatchObject({ state: 'succeeded', videoTaskStatus: 'SUCCESS', returnedN: 1 });
    expect(job!.videoTaskId).toBeTruthy();
    const [video] = rig.store.images.listForJob(job!.id);
    expect(video).toMatchObject({ downloadState: 'done' });
    expect(video!.relPath).toMatch(/\.mp4$/);
    const file = join(rig.libraryDir, video!.relPath!);
    expect(readFileSync(file).subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(sha256File(file)).toBe(video!.sha256);
    const submissions = rig.gateway.ledger.entries();
    expect(submissions).toHaveLength(1);
    expect(submissions[0]).toMatchObject({ model: 'sora-2', state: 'settled' });
    expect(assertLegalPath(rig.store, job!.id)).toEqual(['queued→running', 'running→succeeded']);
  });

  it('after a crash mid-poll, a new engine polls the submitted task instead of resubmitting', async () => {
    rig = await engineRig({ ...FAST, start: false });
    const batch = rig.batch([VIDEO]);
    const [queued] = jobsOf(rig.store, batch.id);
    // what a crashed engine leaves: the job running, its task submitted and recorded
    const submitted = await rig.client.submitVideo({
      model: 'sora-2',
      prompt: queued!.prompt,
      size: '720x1280',
      seconds: '4',
    });
    if (!submitted.ok) throw new Error(submitted.message);
    const now = Date.now();
    rig.store.jobs.claimRunnable(1, now);
    rig.store.jobs.setVideoTask(queued!.id, {
      taskId: submitted.value.id,
      status: 'IN_PROGRESS',
      now,
    });

    const report = await rig.engine.start();
    expect(report.uncertain).toEqual([]);
    expect(report.resumeVideo.map((job) => job.id)).toEqual([queued!.id]);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    const job = rig.store.jobs.get(queued!.id)!;
    expect(job).toMatchObject({ state: 'succeeded', videoTaskId: submitted.value.id });
    expect(rig.store.images.listForJob(job.id)[0]).toMatchObject({ downloadState: 'done' });
    // one submission in all: the one made before the crash
    expect(rig.gateway.ledger.entries()).toHaveLength(1);
    expect(rig.engine.progress().requestsSent).toBe(0);
    assertLegalPath(rig.store, job.id);
  });

  it('stop({abort}) leaves a submitted task to the next engine, which polls it to the end', async () => {
    rig = await engineRig({ ...FAST, gateway: { videoDurationMs: 1000 } });
    const batch = rig.batch([VIDEO]);
    const [queued] = jobsOf(rig.store, batch.id);
    await pollUntil(
      () => rig!.store.jobs.get(queued!.id)!.videoTaskId !== null,
      'the task is submitted',
    );
    // quitting the app: the task is paid for, so its result must not be dropped
    await rig.engine.stop({ abort: true });
    expect(rig.store.jobs.get(queued!.id)!.state).toBe('running');

    const report = await rig.newEngine().start();
    expect(report.resumeVideo.map((job) => job.id)).toEqual([queued!.id]);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    expect(rig.store.jobs.get(queued!.id)).toMatchObject({ state: 'succeeded' });
    expect(rig.store.images.listForJob(queued!.id)[0]).toMatchObject({ downloadState: 'done' });
    expect(rig.gateway.ledger.entries()).toHaveLength(1);
    assertLegalPath(rig.store, queued!.id);
  });

  it('cancelJob on a polled video job cancels it (the person chose to)', async () => {
    rig = await engineRig({ ...FAST, gateway: { videoDurationMs: 5000 } });
    const batch = rig.batch([VIDEO]);
    const [queued] = jobsOf(rig.store, batch.id);
    await pollUntil(
      () => rig!.store.jobs.get(queued!.id)!.videoTaskId !== null,
      'the task is submitted',
    );
    rig.engine.cancelJob(queued!.id);
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.get(queued!.id)!.state).toBe('canceled');
  });
});

// The gallery's video tiles show a poster: the task's `thumbnail` variant, fetched once after
// the video is written, best effort (the interface does not promise the variant).
describe('video posters', () => {
  /** Runs one sora-2 video job to the end; the poster requests and what the engine said. */
  async function runVideo(options: { thumbnails: boolean; faults?: string }) {
    const { logger, lines } = captureLogger();
    rig = await engineRig({
      gateway: { ...FAST.gateway, ...(options.faults ? { faults: options.faults } : {}) },
      engine: { ...FAST.engine, thumbnails: options.thumbnails, logger },
      start: false,
    });
    const content = vi.spyOn(rig.client, 'downloadVideoContent');
    const written: ImageWritten[] = [];
    rig.engine.on('imageWritten', (event) => void written.push(event));
    const batch = rig.batch([VIDEO]);
    await rig.engine.start();
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    await pollUntil(() => written.length === 1, 'the video is announced');
    const [job] = jobsOf(rig.store, batch.id);
    expect(job).toMatchObject({ state: 'succeeded', videoTaskStatus: 'SUCCESS' });
    const [video] = rig.store.images.listForJob(job!.id);
    // the video is written and done whatever became of its poster
    expect(video).toMatchObject({ downloadState: 'done', downloadTries: 1 });
    const file = join(rig.libraryDir, video!.relPath!);
    expect(sha256File(file)).toBe(video!.sha256);
    // one generation request in all: a poster is a GET of the finished task, never a new one
    expect(rig.gateway.ledger.entries()).toHaveLength(1);
    expect(rig.engine.progress().requestsSent).toBe(1);
    const posterCalls = content.mock.calls.filter(([, call]) => call?.variant === 'thumbnail');
    for (const [taskId] of posterCalls) expect(taskId).toBe(job!.videoTaskId);
    return { file, poster: thumbnailPath(file), posterCalls, written, lines, video: video! };
  }

  it("writes the mp4 and its poster, a small WebP of the first frame in the video's shape", async () => {
    const { file, poster, posterCalls, written, lines } = await runVideo({ thumbnails: true });
    expect(file).toMatch(/\.mp4$/);
    expect(poster).toBe(join(file, '..', '.thumbs', `${file.split('/').pop()}.webp`));
    const meta = await sharp(poster).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(256);
    // 720x1280 asked: portrait, 9:16
    expect(meta.width! / meta.height!).toBeCloseTo(720 / 1280, 1);
    expect(posterCalls).toHaveLength(1);
    expect(written).toMatchObject([{ thumbnail: true }]);
    expect(lines).toEqual([]);
  });

  it.each([
    { fault: 'url-404', said: '404 file_expired' },
    { fault: 'url-500', said: '500' },
    { fault: 'url-truncate', said: 'its answer broke off' },
  ])(
    'a gateway whose thumbnail variant fails ($fault) still writes the video, with no poster, one info line and no retry',
    async ({ fault, said }) => {
      // the video's content is the first download, its poster the second
      const run = await runVideo({ thumbnails: true, faults: `${fault}@2` });
      expect(existsSync(run.poster)).toBe(false);
      expect(run.posterCalls).toHaveLength(1);
      expect(run.written).toMatchObject([{ thumbnail: false }]);
      expect(run.lines).toHaveLength(1);
      expect(run.lines[0]!.level).toBe('info');
      expect(run.lines[0]!.message).toContain(`No poster for ${run.file}`);
      expect(run.lines[0]!.message).toContain(said);
    },
  );

  it('a video found in place after a crash is adopted and gets its missing poster, once', async () => {
    const { file, poster, video } = await runVideo({ thumbnails: false });
    await rig!.engine.stop();
    const calls = {
      video: vi.spyOn(rig!.client, 'downloadImage'),
      poster: vi.spyOn(rig!.client, 'downloadVideoContent'),
    };
    // the crash: the file placed, its done mark never committed
    const loseDoneMark = () =>
      rig!.store.db
        .prepare(`UPDATE images SET download_state = 'downloading' WHERE id = ?`)
        .run(video.id);
    loseDoneMark();
    await rig!.newEngine({ thumbnails: true }).start();
    expect(await rig!.engine.whenIdle()).toBe('done');
    expect(rig!.store.images.get(video.id)).toMatchObject({ downloadState: 'done' });
    expect(sha256File(file)).toBe(video.sha256);
    expect(calls.video).not.toHaveBeenCalled(); // adopted, not downloaded again
    expect(calls.poster.mock.calls).toMatchObject([[expect.any(String), { variant: 'thumbnail' }]]);
    expect((await sharp(poster).metadata()).format).toBe('webp');

    // once more: the poster is there, so nothing is asked
    await rig!.engine.stop();
    loseDoneMark();
    await rig!.newEngine({ thumbnails: true }).start();
    expect(await rig!.engine.whenIdle()).toBe('done');
    expect(calls.poster).toHaveBeenCalledTimes(1);
    expect(rig!.gateway.ledger.entries()).toHaveLength(1);
  });

  it('asks for no poster when thumbnails are off', async () => {
    const { poster, posterCalls, written, lines } = await runVideo({ thumbnails: false });
    expect(posterCalls).toEqual([]);
    expect(existsSync(poster)).toBe(false);
    expect(written).toMatchObject([{ thumbnail: false }]);
    expect(lines).toEqual([]);
  });
});

// Interface 7 rule 2: task and video errors carry top-level `code`, `message`, `data`, plus the
// task status and fail reason. Whatever API the task went through, the platform's code and
// reason must reach the job, and a task error never resubmits the job by itself.
describe('video task errors (interface 7 rule 2)', () => {
  it.each([
    { api: '/v1/videos', job: VIDEO, catalogue: [] },
    { api: '/v1/video/generations', job: KLING, catalogue: [KLING_ENTRY] },
  ])(
    '$api: a task that ends in FAILURE fails the job as task-failed with the platform code and fail reason, refunded, never resubmitted',
    async ({ api, job: newJob, catalogue }) => {
      rig = await engineRig({
        ...FAST,
        gateway: { ...FAST.gateway, faults: 'task-fail@1' },
        catalogue: createCatalogue(catalogue),
      });
      const batch = rig.batch([newJob]);
      expect(await rig.engine.whenIdle()).toBe('done');
      await rig.gateway.idle();
      const [job] = jobsOf(rig.store, batch.id);
      const [submission] = rig.gateway.ledger.entries();
      expect(submission).toMatchObject({ endpoint: api, state: 'refunded', charged: 0 });
      const requestId = submission!.requestId;
      expect(job).toMatchObject({
        state: 'failed',
        failureKind: 'task-failed',
        errorCode: 'video_generation_failed',
        tries: 1,
        videoTaskId: taskIdOf(requestId),
        lastRequestId: requestId,
      });
      expect(job!.errorMessage).toMatch(
        /^The task failed \(video_generation_failed: (.+)\)\. \(request id req_[0-9a-f]+\)$/,
      );
      expect(job!.errorMessage).toContain(`video_generation_failed: ${SIMULATED_FAIL_REASON})`);
      // the one attempt is the submission, which the gateway accepted: it keeps its request id
      expect(rig.store.attempts.listForJob(job!.id)).toMatchObject([
        { outcome: 'succeeded', httpStatus: 200, requestId },
      ]);
      expect(rig.store.images.listForJob(job!.id)).toEqual([]);
      // a failed task is not submitted again by itself: one submission in all
      expect(rig.gateway.ledger.entries()).toHaveLength(1);
      expect(rig.engine.progress().requestsSent).toBe(1);
      expect(rig.gateway.ledger.totalCharged()).toBe(0);
      expect(assertLegalPath(rig.store, job!.id)).toEqual(['queued→running', 'running→failed']);
    },
  );

  // (the simulator serves a task at both paths; a gateway may serve it only where it was sent)
  it('/v1/video/generations: the engine polls the task where it lives', async () => {
    rig = await engineRig({ ...FAST, catalogue: createCatalogue([KLING_ENTRY]), start: false });
    const getVideo = vi.spyOn(rig.client, 'getVideo');
    rig.batch([KLING]);
    await rig.engine.start();
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(getVideo).toHaveBeenCalled();
    for (const [task] of getVideo.mock.calls) expect(task.api).toBe('video-generations');
  });

  it('a task that ends in FAILURE leaves the platform status FAILURE on the job', async () => {
    rig = await engineRig({ ...FAST, gateway: { ...FAST.gateway, faults: 'task-fail@1' } });
    const batch = rig.batch([VIDEO]);
    expect(await rig.engine.whenIdle()).toBe('done');
    const [job] = jobsOf(rig.store, batch.id);
    expect(job).toMatchObject({ state: 'failed', failureKind: 'task-failed' });
    expect(job!.videoTaskStatus).toBe('FAILURE');
  });

  it('/v1/video/generations: a submission refused in the {code, message, data} envelope fails the job as rejected with that code and message, on the job and the attempt; nothing charged, never resent', async () => {
    // the catalogue does not list kling-v2's durations, so Atelier sends 7 s; the gateway refuses
    rig = await engineRig({
      ...FAST,
      catalogue: createCatalogue([{ ...KLING_ENTRY, seconds: [] }]),
    });
    const batch = rig.batch([{ ...KLING, params: { seconds: '7' } }]);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    const [job] = jobsOf(rig.store, batch.id);
    const said = '400 invalid_seconds: "seconds" must be one of 5, 10 for model "kling-v2".';
    expect(job).toMatchObject({
      state: 'failed',
      failureKind: 'rejected',
      errorCode: 'invalid_seconds',
      tries: 1,
      videoTaskId: null,
    });
    expect(job!.errorMessage).toContain(said);
    const attempts = rig.store.attempts.listForJob(job!.id);
    expect(attempts).toMatchObject([
      {
        outcome: 'failed',
        decision: 'fail',
        httpStatus: 400,
        errorCode: 'invalid_seconds',
        errorMessage: job!.errorMessage,
      },
    ]);
    expect(attempts[0]!.requestId).toMatch(/^req_[0-9a-f]+$/);
    expect(job!.lastRequestId).toBe(attempts[0]!.requestId);
    expect(job!.errorMessage).toContain(`(request id ${attempts[0]!.requestId})`);
    // refused before any quota was taken, and not retried: a parameter error stays one
    expect(rig.gateway.ledger.entries()).toEqual([]);
    expect(rig.engine.progress().requestsSent).toBe(1);
    expect(assertLegalPath(rig.store, job!.id)).toEqual(['queued→running', 'running→failed']);
  });
});

// A balance error in a task's answer pauses the whole queue, as the ordinary balance error does
// (no-retry.test.ts): the job goes back to `queued` with its tries not counted, the reason is
// shown, nothing starts until a person resumes.
describe('a balance error in a video task answer pauses the whole queue', () => {
  type Case = {
    name: string;
    job: typeof VIDEO | typeof KLING;
    gateway: { faults?: string; balance?: number };
    /** The HTTP status of a refusal (a task read from a 200 is not an HTTP error). */
    httpStatus?: number;
    /** What the gateway said, as the pause reason quotes it. */
    said: string;
    /** Whether a task was created (and refunded) before the refusal. */
    refundedTask: boolean;
    fix: (rig: EngineRig) => void;
  };
  const cases: Case[] = [
    {
      name: '/v1/video/generations: 200 {code: insufficient_user_quota, message, data: {status: FAILURE, fail_reason}}',
      job: KLING,
      gateway: { faults: 'task-quota@1' },
      said: `insufficient_user_quota: ${SIMULATED_QUOTA_REASON}`,
      refundedTask: true,
      fix: (r) => r.gateway.setFaults(''),
    },
    {
      name: '/v1/videos: 200 video object in FAILURE with error.code insufficient_user_quota',
      job: VIDEO,
      gateway: { faults: 'task-quota@1' },
      said: `insufficient_user_quota: ${SIMULATED_QUOTA_REASON}`,
      refundedTask: true,
      fix: (r) => r.gateway.setFaults(''),
    },
    {
      name: '/v1/video/generations: 403 {code: insufficient_user_quota, message, data: null} at submission',
      job: KLING,
      gateway: { balance: 100 },
      httpStatus: 403,
      said: '403 insufficient_user_quota: Insufficient account balance: this call needs 25000 quota and 100 remains. Top up in the console.',
      refundedTask: false,
      fix: (r) => {
        r.gateway.ledger.balance = 1e9;
      },
    },
  ];

  it.each(cases)('$name', async ({ job: newJob, gateway, httpStatus, said, refundedTask, fix }) => {
    rig = await engineRig({
      gateway: { ...FAST.gateway, ...gateway },
      engine: { ...FAST.engine, concurrency: 1 },
      catalogue: createCatalogue([KLING_ENTRY]),
    });
    const batch = rig.batch([newJob, newJob]);
    expect(await rig.engine.whenIdle()).toBe('paused');
    await rig.gateway.idle();
    const [first, second] = jobsOf(rig.store, batch.id);

    const paused = rig.engine.progress().paused;
    expect(paused).toMatchObject({ code: 'insufficient_user_quota' });
    expect(paused!.reason).toContain(said);
    expect(rig.store.queue.get()).toMatchObject({
      paused: true,
      pauseCode: 'insufficient_user_quota',
      pauseReason: paused!.reason,
    });
    // handed back, not failed, not retried: the tries do not count, no task is kept to poll
    expect(first).toMatchObject({
      state: 'queued',
      tries: 0,
      failureKind: null,
      videoTaskId: null,
      stateReason: paused!.reason,
    });
    const [attempt, ...more] = rig.store.attempts.listForJob(first!.id);
    expect(more).toEqual([]);
    expect(attempt).toMatchObject({
      outcome: 'pause-queue',
      decision: 'pause-queue',
      ...(httpStatus === undefined ? {} : { httpStatus }),
      errorCode: 'insufficient_user_quota',
      errorMessage: paused!.reason,
    });
    expect(attempt!.requestId).toMatch(/^req_[0-9a-f]+$/);
    expect(first!.lastRequestId).toBe(attempt!.requestId);
    // the whole queue stopped: the second job was never sent
    expect(second).toMatchObject({ state: 'queued', tries: 0 });
    expect(rig.store.attempts.listForJob(second!.id)).toEqual([]);
    expect(rig.engine.progress().requestsSent).toBe(1);
    if (refundedTask) {
      expect(rig.gateway.ledger.entries()).toMatchObject([
        { requestId: attempt!.requestId, state: 'refunded', charged: 0 },
      ]);
    } else {
      expect(rig.gateway.ledger.entries()).toEqual([]);
    }
    // still paused: nothing is resubmitted by itself
    expect(await rig.engine.whenIdle()).toBe('paused');
    expect(rig.engine.progress().requestsSent).toBe(1);
    expect(assertLegalPath(rig.store, first!.id)).toEqual(['queued→running', 'running→queued']);

    await resumeAfterFix(rig, fix);
    for (const job of jobsOf(rig.store, batch.id)) {
      expect(job).toMatchObject({ state: 'succeeded', videoTaskStatus: 'SUCCESS' });
      assertLegalPath(rig.store, job.id);
    }
    const ledger = rig.gateway.ledger.entries();
    expect(ledger.filter((e) => e.state === 'settled')).toHaveLength(2);
    expect(ledger).toHaveLength(refundedTask ? 3 : 2);
  });
});
