import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempPathIn } from '../../../main/core/library/library-fs.ts';
import {
  assertLegalPath,
  engineRig,
  jobsOf,
  libraryFiles,
  sha256File,
  tempFiles,
  type EngineRig,
} from '../../support/engine-harness.ts';

// No job lost across a real kill -9 in the middle of a batch; nothing in flight resent.

const child = resolve('test/support/engine-crash-child.ts');
const JOBS = 200;

let rig: EngineRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

/** Runs the queue in a child process and SIGKILLs it once some work is done and more in flight. */
function runThenKill(rig: EngineRig, enough: (done: number, running: number) => boolean) {
  return new Promise<void>((done, fail) => {
    const proc = spawn(
      process.execPath,
      [child, rig.dbFile, rig.libraryDir, rig.gateway.url, rig.gateway.key],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    let killed = false;
    proc.stderr.on('data', (chunk) => (err += chunk));
    proc.stdout.on('data', (chunk: Buffer) => {
      const last = chunk.toString().trim().split('\n').at(-1)!;
      const [, downloaded, running] = last.split(' ').map(Number);
      if (!killed && enough(downloaded!, running!)) {
        killed = true;
        proc.kill('SIGKILL');
      }
    });
    proc.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') done();
      else fail(new Error(`the child exited by itself (${code}): ${err}`));
    });
  });
}

describe('kill -9 in the middle of a batch', () => {
  it('loses no job, resends nothing in flight, and leaves disk and database in agreement', async () => {
    rig = await engineRig({ gateway: { latencyMs: 150 }, start: false });
    const batch = rig.batch(JOBS);
    await runThenKill(rig, (downloaded, running) => downloaded >= 30 && running > 0);

    const inFlight = rig.store.jobs.listRunning().map((job) => job.id);
    expect(inFlight.length).toBeGreaterThan(0);
    const succeededBefore = rig.store.jobs.counts(batch.id).succeeded;
    expect(succeededBefore).toBeGreaterThan(0);

    // what a write cut short by the kill leaves (the kill rarely lands mid-write on its own)
    // (the child's own cut-short write, when there is one, is there too)
    writeFileSync(tempPathIn(join(rig.libraryDir, batch.dirName)), 'half an image');
    expect(tempFiles(rig.libraryDir).length).toBeGreaterThanOrEqual(1);

    // a new engine in this process takes over the dead one's queue
    await rig.gateway.idle();
    rig.gateway.options.latency.fixedMs = 0;
    const report = await rig.engine.start();
    expect(report.uncertain.sort((a, b) => a - b)).toEqual(inFlight);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();

    const jobs = jobsOf(rig.store, batch.id);
    expect(jobs).toHaveLength(JOBS);
    const counts = rig.store.jobs.counts(batch.id);
    expect(counts).toEqual({
      queued: 0,
      running: 0,
      retrying: 0,
      succeeded: JOBS - inFlight.length,
      failed: inFlight.length,
      canceled: 0,
    });
    for (const job of jobs) {
      assertLegalPath(rig.store, job.id);
      // one attempt per job: nothing was sent twice
      const attempts = rig.store.attempts.listForJob(job.id);
      expect(attempts, JSON.stringify({ job, attempts })).toHaveLength(1);
      if (inFlight.includes(job.id)) {
        expect(job).toMatchObject({ state: 'failed', failureKind: 'uncertain' });
        expect(rig.store.attempts.listForJob(job.id)[0]!.outcome).toBe('interrupted');
      }
    }
    // every request the gateway saw came from one attempt; no request id billed twice
    const attemptIds = new Set(
      jobs.flatMap((job) => rig!.store.attempts.listForJob(job.id).map((a) => a.requestId)),
    );
    const entries = rig.gateway.ledger.entries();
    expect(entries.length).toBeLessThanOrEqual(JOBS);
    const settled = entries.filter((e) => e.state === 'settled');
    // the succeeded jobs were each charged once (the in-flight ones may or may not have been)
    expect(settled.filter((e) => attemptIds.has(e.requestId))).toHaveLength(JOBS - inFlight.length);

    // every succeeded job's image is on disk (written before the crash or resumed after)
    const images = jobs.flatMap((job) => rig!.store.images.listForJob(job.id));
    expect(images).toHaveLength(JOBS - inFlight.length);
    for (const image of images) {
      expect(image.downloadState).toBe('done');
      expect(sha256File(join(rig.libraryDir, image.relPath!))).toBe(image.sha256);
    }
    expect(libraryFiles(rig.libraryDir).sort()).toEqual(
      images.map((image) => image.relPath!).sort(),
    );
    expect(tempFiles(rig.libraryDir)).toEqual([]);
  }, 60_000);

  it('a video job killed while its task runs is polled again, never resubmitted', async () => {
    rig = await engineRig({
      gateway: { videoDurationMs: 500 },
      engine: { videoPoll: { initialMs: 10, maxMs: 40 } },
      start: false,
    });
    const batch = rig.batch([
      { kind: 'video', model: 'sora-2', size: '720x1280', params: { seconds: '4' } },
    ]);
    const [job] = jobsOf(rig.store, batch.id);
    await runThenKill(rig, () => rig!.store.jobs.get(job!.id)!.videoTaskId !== null);
    const left = rig.store.jobs.get(job!.id)!;
    expect(left.state).toBe('running');

    const report = await rig.engine.start();
    expect(report.uncertain).toEqual([]);
    expect(report.resumeVideo.map((j) => j.id)).toEqual([job!.id]);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    expect(rig.store.jobs.get(job!.id)).toMatchObject({
      state: 'succeeded',
      videoTaskId: left.videoTaskId,
    });
    const [video] = rig.store.images.listForJob(job!.id);
    expect(video).toMatchObject({ downloadState: 'done' });
    expect(sha256File(join(rig.libraryDir, video!.relPath!))).toBe(video!.sha256);
    // one submission, made by the killed process
    expect(rig.gateway.ledger.entries()).toHaveLength(1);
    expect(rig.store.attempts.listForJob(job!.id)).toHaveLength(1);
    assertLegalPath(rig.store, job!.id);
  }, 30_000);

  // A crash after an image's file is placed but before its "done" mark commits leaves the row
  // `downloading`. If the link has expired by the restart, the file at the reserved path (placed
  // atomically, so whole) must be adopted, not reported lost.
  it('a file already in place when its link has expired is adopted, not lost', async () => {
    rig = await engineRig();
    const batch = rig.batch(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.engine.stop();
    const [image] = rig.store.images.listForJob(jobsOf(rig.store, batch.id)[0]!.id);
    expect(image!.downloadState).toBe('done');
    // the crash: file on disk, its done mark never committed; then the link expires
    rig.store.db
      .prepare(
        `UPDATE images SET download_state = 'downloading', sha256 = NULL, bytes = NULL WHERE id = ?`,
      )
      .run(image!.id);
    rig.gateway.setFaults('url-404:1');

    await rig.newEngine().start();
    expect(await rig.engine.whenIdle()).toBe('done');
    const after = rig.store.images.get(image!.id)!;
    expect(after.downloadState).toBe('done');
    expect(sha256File(join(rig.libraryDir, after.relPath!))).toBe(after.sha256);
  });
});
