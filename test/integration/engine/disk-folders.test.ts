import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  engineRig,
  jobsOf,
  libraryFiles,
  tempFiles,
  until,
  type EngineRig,
} from '../../support/engine-harness.ts';
import { canMount, fillDisk, mountTmpfs, remount, unmountAll } from '../../support/mounts.ts';

// The library and the data folder on disks that refuse: the engine never goes on generating
// (and paying) for images it cannot keep, and what it received stays retrievable.

let rig: EngineRig | null = null;
afterEach(async () => {
  await rig?.engine.stop({ abort: true });
  // (lazily, before the rig's folder is removed: the store may still hold its files open)
  unmountAll();
  await rig?.close();
  rig = null;
});

function imagesOf(rig: EngineRig, batchId: number) {
  return jobsOf(rig.store, batchId).flatMap((job) => rig.store.images.listForJob(job.id));
}

describe('Engine.start checks the library before the first request', () => {
  const cases: Array<[string, (rig: EngineRig) => void, RegExp, boolean]> = [
    ['the library is a file', (r) => writeFileSync(r.libraryDir, 'x'), /is a file/, false],
    [
      'a folder on its path is a file',
      (r) => {
        writeFileSync(join(r.dir, 'blocker'), 'x');
        r.libraryDir = join(r.dir, 'blocker', 'library');
      },
      /is a file/,
      false,
    ],
    [
      'it is on a read-only volume (to be created there)',
      (r) => {
        mountTmpfs(join(r.dir, 'ro'), '1m', { readOnly: true });
        r.libraryDir = join(r.dir, 'ro', 'library');
      },
      /read-only/,
      true,
    ],
    [
      'it exists on a read-only volume',
      (r) => {
        mountTmpfs(r.libraryDir, '1m', { readOnly: true });
      },
      /read-only/,
      true,
    ],
  ];
  it.each(cases)('%s: refused, naming the folder and what to do; nothing sent', async (...c) => {
    const [, breakIt, problem, needsMount] = c;
    if (needsMount && !canMount) return;
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
  });
});

describe.runIf(canMount)('a library that becomes read-only mid-run', () => {
  it.each(['b64_json', 'url'] as const)(
    '%s: the queue pauses as a disk problem (mkdir -p says ENOENT there), the images stay retryable; resuming once writable finishes without generating again',
    async (responseFormat) => {
      rig = await engineRig({ start: false, engine: { responseFormat, concurrency: 1 } });
      mountTmpfs(rig.libraryDir, '1m');
      const batch = rig.batch(6, { paused: true });
      await rig.engine.start();
      remount(rig.libraryDir, 'ro');
      rig.engine.pauseBatch(batch.id, false);
      expect(await rig.engine.whenIdle()).toBe('paused');
      const paused = rig.engine.progress().paused!;
      expect(paused.code).toBe('unwritable');
      expect(paused.reason).toContain(join(rig.libraryDir, batch.dirName));
      expect(paused.reason).toMatch(/read-only/);
      await rig.gateway.idle();
      const charged = rig.gateway.ledger.entries().length;
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
      expect(rig.engine.progress().downloads).toMatchObject({ done: 6, failed: 0, pending: 0 });
      expect(rig.gateway.ledger.entries()).toHaveLength(6);
      for (const job of jobsOf(rig.store, batch.id)) {
        expect(rig.store.attempts.listForJob(job.id)).toHaveLength(1);
      }
      expect(tempFiles(rig.libraryDir)).toEqual([]);
    },
  );
});

describe.runIf(canMount)('the data folder on a disk that fills up mid-run', () => {
  const dataOnTmpfs = (dir: string) => {
    mountTmpfs(join(dir, 'data'), '2m');
    return join(dir, 'data', 'atelier.db');
  };

  it('stops sending, keeps the answers it could not record in the library, and the next start records them: each prompt generated once', async () => {
    rig = await engineRig({
      start: false,
      dbFile: dataOnTmpfs,
      gateway: { latencyMs: 20 },
      engine: { responseFormat: 'b64_json', concurrency: 4 },
    });
    const batch = rig.batch(Array.from({ length: 60 }, () => ({ size: '64x64' })));
    const paused: Array<{ reason: string; code: string | null }> = [];
    rig.engine.on('paused', (event) => paused.push(event));
    const errors: unknown[] = [];
    const originalError = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      await rig.engine.start();
      await until(() => rig!.gateway.ledger.entries().length >= 10, 'ten answers');
      const filler = fillDisk(join(rig.dir, 'data'));
      expect(await rig.engine.whenIdle()).toBe('stopped');
      await rig.gateway.idle();
      expect(errors).toEqual([]);
      expect(paused).toHaveLength(1);
      expect(paused[0]!.code).toBe('data-folder-full');
      expect(paused[0]!.reason).toContain(`the data folder ${join(rig.dir, 'data')} is full`);
      expect(rig.engine.progress().paused).toEqual(paused[0]);
      const charged = rig.gateway.ledger.entries().length;
      expect(charged).toBeLessThan(60);

      rmSync(filler);
      const next = rig.newEngine();
      const report = await next.start();
      expect(report.uncertain).toEqual([]);
      expect(await next.whenIdle()).toBe('done');
    } finally {
      console.error = originalError;
    }
    for (const job of jobsOf(rig.store, batch.id)) {
      expect(job.state).toBe('succeeded');
      expect(rig.store.attempts.listForJob(job.id)).toHaveLength(1);
    }
    expect(rig.gateway.ledger.entries()).toHaveLength(60);
    expect(rig.engine.progress().downloads).toMatchObject({ done: 60, failed: 0, pending: 0 });
    expect(libraryFiles(rig.libraryDir).filter((f) => f.endsWith('.png'))).toHaveLength(60);
    expect(libraryFiles(rig.libraryDir).filter((f) => !f.startsWith(batch.dirName))).toEqual([]);
  }, 60_000);
});
