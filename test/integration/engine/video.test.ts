import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assertLegalPath,
  engineRig,
  jobsOf,
  sha256File,
  until,
  type EngineRig,
} from '../../support/engine-harness.ts';

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

  it('a task that ends in FAILURE fails the job as task-failed, refunded', async () => {
    rig = await engineRig({ ...FAST, gateway: { ...FAST.gateway, faults: 'task-fail@1' } });
    const batch = rig.batch([VIDEO]);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    const [job] = jobsOf(rig.store, batch.id);
    expect(job).toMatchObject({ state: 'failed', failureKind: 'task-failed' });
    expect(job!.errorMessage).toMatch(/fail/i);
    expect(rig.store.images.listForJob(job!.id)).toEqual([]);
    expect(rig.gateway.ledger.entries()).toHaveLength(1);
    expect(rig.gateway.ledger.totalCharged()).toBe(0);
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
    await until(
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
    await until(
      () => rig!.store.jobs.get(queued!.id)!.videoTaskId !== null,
      'the task is submitted',
    );
    rig.engine.cancelJob(queued!.id);
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.get(queued!.id)!.state).toBe('canceled');
  });
});
