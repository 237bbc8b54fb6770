import { mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../main/core/engine/engine.ts';
import { openStore } from '../../../main/core/store/store.ts';
import {
  engineRig,
  jobsOf,
  libraryFiles,
  tempFiles,
  type EngineRig,
} from '../../support/engine-harness.ts';
import {
  canMount,
  fillDisk,
  mountTitle,
  mountTmpfs,
  remount,
  unmountAll,
} from '../../support/mounts.ts';
import { captureLogger } from '../../support/capture-logger.ts';
import { pollUntil } from '../../support/poll-until.ts';

// The library and the data folder on disks that refuse: the engine never goes on generating
// (and paying) for images it cannot keep, and what it received stays retrievable.

let rig: EngineRig | null = null;
afterEach(async () => {
  // first, and lazily: whatever happens next (an engine that does not stop), no mount is left
  unmountAll();
  await rig?.close();
  rig = null;
});

function imagesOf(rig: EngineRig, batchId: number) {
  return jobsOf(rig.store, batchId).flatMap((job) => rig.store.images.listForJob(job.id));
}

describe('Engine.start checks the library before the first request', () => {
  type BreakIt = (rig: EngineRig) => void;
  const onAFile: Array<[string, BreakIt]> = [
    ['the library is a file', (r) => writeFileSync(r.libraryDir, 'x')],
    [
      'a folder on its path is a file',
      (r) => {
        writeFileSync(join(r.dir, 'blocker'), 'x');
        r.libraryDir = join(r.dir, 'blocker', 'library');
      },
    ],
  ];
  const readOnly: Array<[string, BreakIt]> = [
    [
      'it is to be created on a read-only volume',
      (r) => {
        mountTmpfs(join(r.dir, 'ro'), '1m', { readOnly: true });
        r.libraryDir = join(r.dir, 'ro', 'library');
      },
    ],
    ['it exists on a read-only volume', (r) => mountTmpfs(r.libraryDir, '1m', { readOnly: true })],
  ];

  async function expectRefusedBeforeAnyRequest(breakIt: BreakIt, problem: RegExp) {
    rig = await engineRig({ start: false });
    breakIt(rig);
    const engine = rig.newEngine({ libraryDir: rig.libraryDir });
    const batch = rig.batch(3);
    const refusal = await engine.start().then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(Error);
    expect((refusal as Error).name).toBe('LibraryFolderError');
    const message = (refusal as Error).message;
    expect(message).toContain(rig.libraryDir);
    expect(message).toMatch(problem);
    expect(message).toMatch(/choose another library folder/);
    expect(rig.gateway.ledger.entries()).toHaveLength(0);
    for (const job of jobsOf(rig.store, batch.id)) expect(job.state).toBe('queued');
    // the queue was not taken: a fixed library starts at once
    const fixed = rig.newEngine({ libraryDir: join(rig.dir, 'fixed') });
    await fixed.start();
    expect(await fixed.whenIdle()).toBe('done');
    expect(rig.gateway.ledger.entries()).toHaveLength(3);
  }

  it.each(onAFile)('%s: refused, naming the folder and what to do; nothing sent', (_, breakIt) =>
    expectRefusedBeforeAnyRequest(breakIt, /is a file/),
  );
  it.runIf(canMount).each(readOnly)(
    mountTitle('%s: refused, naming the folder and what to do; nothing sent'),
    (_, breakIt) => expectRefusedBeforeAnyRequest(breakIt, /read-only/),
  );
});

describe('a batch folder planted as a link out of the library', () => {
  it('writes nothing through it: the queue pauses saying where it leads, and resumes once it is gone', async () => {
    rig = await engineRig({
      start: false,
      engine: { concurrency: 1, responseFormat: 'b64_json', manifest: true, thumbnails: true },
    });
    const outside = join(rig.dir, 'outside');
    mkdirSync(outside);
    mkdirSync(rig.libraryDir);
    const batch = rig.batch(3);
    symlinkSync(outside, join(rig.libraryDir, batch.dirName));
    await rig.engine.start();
    expect(await rig.engine.whenIdle()).toBe('paused');
    const paused = rig.engine.progress().paused!;
    expect(paused.code).toBe('unwritable');
    expect(paused.reason).toContain(
      `Refusing to write the image ${join(rig.libraryDir, batch.dirName)}/`,
    );
    expect(paused.reason).toContain(
      `leads outside the library (${rig.libraryDir}), to ${outside}/`,
    );
    expect(readdirSync(outside)).toEqual([]);

    rmSync(join(rig.libraryDir, batch.dirName));
    rig.engine.resume();
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(readdirSync(outside)).toEqual([]);
    expect(rig.engine.progress().downloads).toMatchObject({ done: 3, failed: 0 });
  });
});

describe('the library folder swapped for a link out of it mid-run', () => {
  it.each(['b64_json', 'url'] as const)(
    '%s: writes nothing through it (the run keeps the real path it began with): the queue pauses',
    async (responseFormat) => {
      rig = await engineRig({ start: false, engine: { concurrency: 1, responseFormat } });
      const outside = join(rig.dir, 'outside');
      mkdirSync(outside);
      rig.batch(1, { name: 'first' });
      await rig.engine.start();
      expect(await rig.engine.whenIdle()).toBe('done');
      renameSync(rig.libraryDir, join(rig.dir, 'moved'));
      symlinkSync(outside, rig.libraryDir);
      rig.batch(2, { name: 'second' });
      rig.engine.wake();
      expect(await rig.engine.whenIdle()).toBe('paused');
      const paused = rig.engine.progress().paused!;
      expect(paused.code).toBe('unwritable');
      expect(paused.reason).toContain(
        `leads outside the library (${rig.libraryDir}), to ${outside}/`,
      );
      expect(readdirSync(outside)).toEqual([]);
    },
  );
});

describe.runIf(canMount)(mountTitle('a library that becomes read-only mid-run'), () => {
  it.each(['b64_json', 'url'] as const)(
    '%s: the queue pauses as a disk problem (mkdir -p says ENOENT there), the images stay retryable; resuming once writable finishes without generating again',
    async (responseFormat) => {
      // (each answer 50 ms apart: the failed write is known before the next answer comes)
      rig = await engineRig({
        start: false,
        gateway: { latencyMs: 50 },
        engine: { responseFormat, concurrency: 1 },
      });
      mountTmpfs(rig.libraryDir, '1m');
      // a first image written: the file-writing thread is warm, a failure is known in ms
      rig.batch(1, { name: 'warm-up' });
      await rig.engine.start();
      expect(await rig.engine.whenIdle()).toBe('done');
      remount(rig.libraryDir, 'ro');
      const batch = rig.batch(6, { paused: true });
      rig.engine.pauseBatch(batch.id, false);
      expect(await rig.engine.whenIdle()).toBe('paused');
      const paused = rig.engine.progress().paused!;
      expect(paused.code).toBe('unwritable');
      expect(paused.reason).toContain(join(rig.libraryDir, batch.dirName));
      expect(paused.reason).toMatch(/read-only/);
      await rig.gateway.idle();
      const charged = rig.gateway.ledger.entries().length - 1;
      // one at a time: the first image that could not be written stopped the queue
      expect(charged).toBeLessThan(6);
      const images = imagesOf(rig, batch.id);
      expect(images.length).toBe(charged);
      for (const image of images) {
        expect(image.downloadState).not.toBe('done');
        expect(image.hasPayload || image.sourceUrl !== null).toBe(true);
      }

      remount(rig.libraryDir, 'rw');
      rig.engine.resume();
      expect(await rig.engine.whenIdle()).toBe('done');
      expect(rig.engine.progress().downloads).toMatchObject({ done: 7, failed: 0, pending: 0 });
      expect(rig.gateway.ledger.entries()).toHaveLength(7);
      for (const job of jobsOf(rig.store, batch.id)) {
        expect(rig.store.attempts.listForJob(job.id)).toHaveLength(1);
      }
      expect(tempFiles(rig.libraryDir)).toEqual([]);
    },
  );
});

describe.runIf(canMount)(mountTitle('the data folder on a disk that fills up mid-run'), () => {
  const dataOnTmpfs = (dir: string) => {
    mountTmpfs(join(dir, 'data'), '8m');
    return join(dir, 'data', 'atelier.db');
  };

  it.each(['b64_json', 'url'] as const)(
    '%s: stops sending, keeps the answers it could not record in the library, and the next start records them: each prompt generated once',
    async (responseFormat) => {
      const { logger, lines } = captureLogger();
      rig = await engineRig({
        start: false,
        dbFile: dataOnTmpfs,
        gateway: { latencyMs: 20 },
        engine: { responseFormat, concurrency: 4, logger },
      });
      const batch = rig.batch(Array.from({ length: 60 }, () => ({ size: '64x64' })));
      const paused: Array<{ reason: string; code: string | null }> = [];
      rig.engine.on('paused', (event) => paused.push(event));
      await rig.engine.start();
      await pollUntil(() => rig!.gateway.ledger.entries().length >= 10, 'ten answers');
      const filler = fillDisk(join(rig.dir, 'data'));
      expect(await rig.engine.whenIdle()).toBe('stopped');
      await rig.engine.stop();
      await rig.gateway.idle();
      expect(lines.filter((line) => line.level === 'error')).toEqual([]);
      expect(paused).toHaveLength(1);
      expect(paused[0]!.code).toBe('data-folder-full');
      expect(paused[0]!.reason).toContain(`the data folder ${join(rig.dir, 'data')} is full`);
      expect(rig.engine.progress().paused).toEqual(paused[0]);
      const charged = rig.gateway.ledger.entries().length;
      expect(charged).toBeLessThan(60);

      rmSync(filler);
      // as a restart does: a new connection (the one that met the full disk stays in error),
      // and this process's lease gone (stop() releases it only when the full disk let it write)
      const lease = rig.store.queue.runner();
      if (lease) rig.store.queue.releaseRunner(lease.id);
      rig.store.close();
      const store = openStore(rig.dbFile);
      const next = new Engine({
        store,
        client: rig.client,
        libraryDir: rig.libraryDir,
        responseFormat,
        logger,
      });
      const report = await next.start();
      expect(report.uncertain).toEqual([]);
      expect(report.answersRecorded).toBeGreaterThan(0);
      const idle = await next.whenIdle();
      expect(next.progress().paused).toBeNull();
      expect(idle).toBe('done');
      await next.stop();
      for (const job of jobsOf(store, batch.id)) {
        expect(job.state).toBe('succeeded');
        expect(store.attempts.listForJob(job.id)).toHaveLength(1);
      }
      expect(rig.gateway.ledger.entries()).toHaveLength(60);
      expect(store.images.counts()).toMatchObject({ done: 60, failed: 0, pending: 0 });
      store.close();
      expect(libraryFiles(rig.libraryDir).filter((f) => f.endsWith('.png'))).toHaveLength(60);
      expect(libraryFiles(rig.libraryDir).filter((f) => !f.startsWith(batch.dirName))).toEqual([]);
    },
    60_000,
  );

  it('with the library on the same full disk, the answers that could not be kept are settled as uncertain at the next start, never resent', async () => {
    rig = await engineRig({
      start: false,
      dbFile: dataOnTmpfs,
      gateway: { latencyMs: 20 },
      engine: { responseFormat: 'b64_json', concurrency: 4 },
    });
    const libraryDir = join(rig.dir, 'data', 'library');
    const batch = rig.batch(Array.from({ length: 60 }, () => ({ size: '64x64' })));
    const engine = rig.newEngine({ libraryDir });
    await engine.start();
    await pollUntil(() => rig!.gateway.ledger.entries().length >= 10, 'ten answers');
    const filler = fillDisk(join(rig.dir, 'data'));
    expect(await engine.whenIdle()).toBe('stopped');
    await engine.stop();
    await rig.gateway.idle();
    expect(engine.progress().paused!.code).toBe('data-folder-full');

    rmSync(filler);
    rig.store.queue.releaseRunner(rig.store.queue.runner()!.id);
    rig.store.close();
    const store = openStore(rig.dbFile);
    try {
      const next = new Engine({
        store,
        client: rig.client,
        libraryDir,
        responseFormat: 'b64_json',
      });
      const report = await next.start();
      expect(report.uncertain.length).toBeGreaterThan(0);
      // (the library's own full disk may have paused the queue first, as the person resumes it)
      next.resume();
      expect(await next.whenIdle()).toBe('done');
      await next.stop();
      const jobs = jobsOf(store, batch.id);
      const failed = jobs.filter((job) => job.state !== 'succeeded');
      expect(failed.map((job) => job.id).sort()).toEqual([...report.uncertain].sort());
      for (const job of failed)
        expect(job).toMatchObject({ state: 'failed', failureKind: 'uncertain' });
      // nothing sent twice: one attempt per job, one charge per attempt
      for (const job of jobs) expect(store.attempts.listForJob(job.id)).toHaveLength(1);
      expect(rig.gateway.ledger.entries()).toHaveLength(60);
    } finally {
      store.close();
    }
  }, 60_000);
});
