import { execFileSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { namingInputFor } from '../../../main/core/engine/job-request.ts';
import { parseCsv } from '../../../main/core/library/csv.ts';
import { MANIFEST_COLUMNS } from '../../../main/core/library/manifest.ts';
import { DEFAULT_TEMPLATE, renderRelativePath } from '../../../main/core/library/naming.ts';
import {
  assertLegalPath,
  engineRig,
  jobsOf,
  libraryFiles,
  sha256File,
  tempFiles,
  type EngineRig,
} from '../../support/engine-harness.ts';

// Results are stored before anything is downloaded; a failed download is retried from what
// the database holds, never by generating again (interface 7 rule 6, 2.5 rule 4).

let rig: EngineRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

function imagesOf(rig: EngineRig, batchId: number) {
  return jobsOf(rig.store, batchId).flatMap((job) => rig.store.images.listForJob(job.id));
}

/** Every `done` row is a file on disk with the recorded hash; every file has its row. */
function expectDiskMatchesRows(rig: EngineRig, batchId: number) {
  const done = imagesOf(rig, batchId).filter((image) => image.downloadState === 'done');
  for (const image of done) {
    expect(sha256File(join(rig.libraryDir, image.relPath!))).toBe(image.sha256);
  }
  const batch = rig.store.batches.get(batchId)!;
  const files = libraryFiles(rig.libraryDir).filter((f) => f.startsWith(`${batch.dirName}/`));
  expect(files.sort()).toEqual(done.map((image) => image.relPath!).sort());
  expect(tempFiles(rig.libraryDir)).toEqual([]);
}

describe('partial success and top-up', () => {
  it('keeps what came back and tops up the missing images, continuing the numbering', async () => {
    rig = await engineRig({ gateway: { faults: 'partial@1' } });
    const batch = rig.batch([{ n: 4, seed: 7 }]);
    expect(await rig.engine.whenIdle()).toBe('done');
    const [job] = jobsOf(rig.store, batch.id);
    expect(job).toMatchObject({ state: 'succeeded', n: 4, returnedN: 2 });
    expect(rig.store.attempts.listForJob(job!.id)[0]!.outcome).toBe('partial');
    const first = rig.store.images.listForJob(job!.id);
    expect(first.map((image) => [image.idx, image.downloadState])).toEqual([
      [1, 'done'],
      [2, 'done'],
    ]);

    const topUp = rig.engine.topUp(job!.id);
    expect(topUp).toMatchObject({ n: 2, retryOf: job!.id, imageOffset: 2, prompt: job!.prompt });
    expect(() => rig!.engine.topUp(job!.id)).toThrow(/already topped up/);
    expect(await rig.engine.whenIdle()).toBe('done');
    const second = rig.store.images.listForJob(topUp.id);
    expect(rig.store.jobs.get(topUp.id)).toMatchObject({ state: 'succeeded', returnedN: 2 });
    expect(second.map((image) => [image.idx, image.downloadState])).toEqual([
      [3, 'done'],
      [4, 'done'],
    ]);
    const names = [...first, ...second].map((image) => image.relPath!);
    expect(new Set(names).size).toBe(4);
    // the top-up's files are numbered 3 and 4 of the same prompt's 4
    expect(names[2]).toMatch(/3\.png$/);
    expect(names[3]).toMatch(/4\.png$/);
    expect(names[2]!.replace(/3\.png$/, '')).toBe(names[0]!.replace(/1\.png$/, ''));
    expectDiskMatchesRows(rig, batch.id);
    await rig.gateway.idle();
    expect(rig.gateway.ledger.entries().map((e) => e.units)).toEqual([2, 2]);
  });
});

describe('download failures never regenerate', () => {
  it.each([
    ['url-404', 'url-expired', /expired/],
    ['url-500', 'file_server_error', /download/i],
  ])('%s: the image fails as a download, the job stays succeeded', async (fault, code, reason) => {
    rig = await engineRig({ gateway: { faults: `${fault}:1` } });
    const batch = rig.batch(2);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    const requests = rig.gateway.ledger.entries().length;
    expect(requests).toBe(2);
    for (const job of jobsOf(rig.store, batch.id)) {
      expect(job.state).toBe('succeeded');
      const [image] = rig.store.images.listForJob(job.id);
      expect(image).toMatchObject({ downloadState: 'failed', failureCode: code, relPath: null });
      expect(image!.failureReason).toMatch(reason);
      // the gateway answered 200 and billed it: only its file's fetching failed
      expect(image!.failureReason).toContain('The image was made and may have been charged');
      expect(image!.failureReason).not.toMatch(/nothing was charged|not charged/i);
      expect(image!.sourceUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\//);
      // an expired link is not worth retrying by itself; a failing server is, a few times
      expect(image!.downloadTries).toBe(fault === 'url-404' ? 1 : 5);
    }
    expect(rig.engine.progress().downloads).toMatchObject({ failed: 2, done: 0 });
    expect(libraryFiles(rig.libraryDir)).toEqual([]);
  });

  it('retryDownloads fetches a failed download again from its link, generating nothing', async () => {
    rig = await engineRig({ gateway: { faults: 'url-500:1' } });
    const batch = rig.batch(2);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    expect(rig.engine.progress().downloads).toMatchObject({ failed: 2, done: 0 });

    rig.gateway.setFaults('');
    expect(rig.engine.retryDownloads()).toBe(2);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    expect(rig.engine.progress().downloads).toMatchObject({ failed: 0, done: 2 });
    expect(rig.gateway.ledger.entries()).toHaveLength(2);
    expectDiskMatchesRows(rig, batch.id);
  });

  it('retryDownloads asks expired links again too: one may answer now, one still failing stays failed', async () => {
    // (some stores answer 404 for a while before a file appears; a GET costs nothing)
    rig = await engineRig({ gateway: { faults: 'url-404@1+2,url-500@3+4+5+6+7' } });
    const batch = rig.batch(3);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    const images = imagesOf(rig, batch.id);
    const codes = images.map((image) => image.failureCode).sort();
    expect(codes).toEqual(['file_server_error', 'url-expired', 'url-expired']);
    expect(rig.store.images.countExpiredLinks(batch.id)).toBe(2);

    // the first link asked again still answers 404; the other two answer
    rig.gateway.setFaults('url-404@8');
    expect(rig.engine.retryDownloads(batch.id)).toBe(3);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    const after = imagesOf(rig, batch.id);
    expect(after.map((image) => image.downloadState).sort()).toEqual(['done', 'done', 'failed']);
    const stillFailed = after.find((image) => image.downloadState === 'failed')!;
    // asked once more, and failed again with its reason
    expect(stillFailed).toMatchObject({ failureCode: 'url-expired', downloadTries: 1 });
    expect(stillFailed.failureReason).toMatch(/expired/);
    expect(rig.store.images.countExpiredLinks(batch.id)).toBe(1);

    // asked again as often as the person wants; still nothing generated
    rig.gateway.setFaults('');
    expect(rig.engine.retryDownloads(batch.id)).toBe(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    expect(rig.engine.progress().downloads).toMatchObject({ failed: 0, done: 3 });
    expect(rig.store.images.countExpiredLinks(batch.id)).toBe(0);
    expect(rig.gateway.ledger.entries()).toHaveLength(3);
    expectDiskMatchesRows(rig, batch.id);
  });

  it('url-truncate: the cut-short download is retried by itself and the file is whole', async () => {
    rig = await engineRig({ gateway: { faults: 'url-truncate@1' } });
    const batch = rig.batch(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    const [image] = imagesOf(rig, batch.id);
    expect(image).toMatchObject({ downloadState: 'done', downloadTries: 2 });
    expect(rig.gateway.ledger.entries()).toHaveLength(1);
    expectDiskMatchesRows(rig, batch.id);
  });

  it('a link that really expired is reported as expired', async () => {
    rig = await engineRig({ gateway: { urlTtlMs: 1 } });
    const batch = rig.batch(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    const [image] = imagesOf(rig, batch.id);
    expect(image).toMatchObject({ downloadState: 'failed', failureCode: 'url-expired' });
    expect(image!.failureReason).toMatch(/expired/);
    expect(jobsOf(rig.store, batch.id)[0]!.state).toBe('succeeded');
    // retry downloads asks the link again: still expired, it fails again; nothing regenerated
    expect(rig.engine.retryDownloads()).toBe(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.gateway.idle();
    const again = imagesOf(rig, batch.id)[0]!;
    expect(again).toMatchObject({
      downloadState: 'failed',
      failureCode: 'url-expired',
      downloadTries: 1,
    });
    expect(again.failureReason).toMatch(/expired/);
    expect(again.updatedAt).toBeGreaterThan(image!.updatedAt);
    expect(rig.gateway.ledger.entries()).toHaveLength(1);
  });
});

describe('a naming template with folders inside the batch folder', () => {
  it('writes there, lists the files in the batch manifest, and sweeps leftovers from there on start', async () => {
    rig = await engineRig({
      engine: { namingTemplate: '{batch}/{model}/{index}.{ext}', manifest: true },
      start: false,
    });
    const batch = rig.batch(2);
    const batchDir = join(rig.libraryDir, batch.dirName);
    // a crash left a temp file where the template writes
    mkdirSync(join(batchDir, 'flux-schnell'), { recursive: true });
    const leftover = join(batchDir, 'flux-schnell', '.atelier-0123456789abcdef.tmp');
    writeFileSync(leftover, 'half an image');
    await rig.engine.start();
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(existsSync(leftover)).toBe(false);
    expect(readdirSync(join(batchDir, 'flux-schnell')).sort()).toEqual(['0001.png', '0002.png']);
    const manifest = readFileSync(join(batchDir, 'manifest.csv'), 'utf8').trim().split('\n');
    expect(
      manifest
        .slice(1)
        .map((row) => row.split(',')[0])
        .sort(),
    ).toEqual(['flux-schnell/0001.png', 'flux-schnell/0002.png']);
  });
});

/**
 * A real full disk: a tiny tmpfs mounted as the library. Mounting needs root (CI and this
 * project's development machine run as root); elsewhere these tests are skipped, and say so.
 */
const canMountTmpfs = (() => {
  const probe = mkdtempSync(join(tmpdir(), 'atelier-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe]);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
})();

describe.runIf(canMountTmpfs)('a full disk (a 256 KB tmpfs as the library)', () => {
  let mounted: string | null = null;
  afterEach(() => {
    // (lazily: the engine may still be closing files in it)
    if (mounted) execFileSync('umount', ['-l', mounted]);
    mounted = null;
  });

  it.each(['b64_json', 'url'] as const)(
    '%s: what fits is done and on disk, the rest stays retryable, the queue pauses; freeing space and resuming finishes without generating again',
    async (responseFormat) => {
      rig = await engineRig({ start: false, engine: { responseFormat, concurrency: 1 } });
      mkdirSync(rig.libraryDir, { recursive: true });
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', rig.libraryDir]);
      mounted = rig.libraryDir;
      // fill it, then free room for about one 64x64 image
      const filler = join(rig.libraryDir, 'filler.bin');
      const fd = openSync(filler, 'w');
      try {
        for (;;) writeSync(fd, Buffer.alloc(4096, 1));
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
      } finally {
        closeSync(fd);
      }
      truncateSync(filler, statSync(filler).size - 16 * 1024);
      const batch = rig.batch(Array.from({ length: 6 }, () => ({ size: '64x64' })));
      await rig.engine.start();
      expect(await rig.engine.whenIdle()).toBe('paused');
      expect(rig.engine.progress().paused).toMatchObject({ code: 'disk-full' });
      expect(rig.engine.progress().paused!.reason).toMatch(/disk is full \(ENOSPC\)/);
      await rig.gateway.idle();
      // prompts generated before the pause succeeded; the pause stopped the others unsent
      for (const job of jobsOf(rig.store, batch.id)) {
        expect(['succeeded', 'queued']).toContain(job.state);
      }
      const images = imagesOf(rig, batch.id);
      const failed = images.filter((image) => image.downloadState === 'failed');
      expect(failed.length).toBeGreaterThan(0);
      for (const image of failed) {
        expect(image.failureCode).toBe('disk-full');
        // retryable: the bytes are kept, or the link is
        expect(image.hasPayload || image.sourceUrl !== null).toBe(true);
      }
      // nothing marked done that is not on disk, whole and as recorded; no temp file left
      expectDiskMatchesRows(rig, batch.id);
      rmSync(filler);
      rig.engine.resume();
      expect(await rig.engine.whenIdle()).toBe('done');
      expect(rig.engine.progress().downloads).toMatchObject({ done: 6, failed: 0, pending: 0 });
      // each prompt generated once: the retried downloads asked for no new generation
      expect(rig.gateway.ledger.entries()).toHaveLength(6);
      for (const job of jobsOf(rig.store, batch.id)) {
        expect(rig.store.attempts.listForJob(job.id)).toHaveLength(1);
      }
      expectDiskMatchesRows(rig, batch.id);
    },
  );
});

describe('an unwritable library', () => {
  // (a library folder that is a file is refused before any request: see disk-folders.test.ts)
  it.each([
    [
      "the batch's folder is a file",
      (libraryDir: string, dirName: string) => {
        mkdirSync(libraryDir, { recursive: true });
        writeFileSync(join(libraryDir, dirName), 'x');
      },
    ],
  ])('%s: images stay retryable, nothing is marked done, the queue pauses', async (_, breakIt) => {
    rig = await engineRig({ start: false, engine: { responseFormat: 'b64_json' } });
    const batch = rig.batch(3);
    breakIt(rig.libraryDir, batch.dirName);
    await rig.engine.start();
    expect(await rig.engine.whenIdle()).toBe('paused');
    const paused = rig.engine.progress().paused!;
    expect(paused.code).toBe('unwritable');
    expect(paused.reason.length).toBeGreaterThan(10);
    await rig.gateway.idle();
    const charged = rig.gateway.ledger.entries().length;
    for (const image of imagesOf(rig, batch.id)) {
      expect(image.downloadState).not.toBe('done');
      // the bytes are kept for the retry
      expect(image.hasPayload).toBe(true);
      expect(rig.store.images.payload(image.id)!.length).toBeGreaterThan(0);
    }
    const failed = imagesOf(rig, batch.id).filter((image) => image.downloadState === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    for (const image of failed) {
      expect(image.failureCode).toBe('unwritable');
      expect(image.failureReason).toBeTruthy();
    }
    for (const job of jobsOf(rig.store, batch.id)) expect(job.state).toBe('succeeded');

    // the person fixes the folder and resumes: the downloads the disk stopped run again
    rmSync(rig.libraryDir, { recursive: true, force: true });
    rig.engine.resume();
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.engine.progress().downloads).toMatchObject({ done: 3, failed: 0, pending: 0 });
    expect(rig.gateway.ledger.entries()).toHaveLength(charged);
    for (const image of imagesOf(rig, batch.id)) {
      expect(image.hasPayload).toBe(false);
      expect(existsSync(join(rig.libraryDir, image.relPath!))).toBe(true);
    }
    expectDiskMatchesRows(rig, batch.id);
    for (const job of jobsOf(rig.store, batch.id)) assertLegalPath(rig.store, job.id);
  });
});

describe('a file already at an image name (bytes in hand, no look at the disk beforehand)', () => {
  /** The PNG as the gateway sent it: Atelier's inserted text chunks taken out again. */
  function withoutOurChunks(png: Buffer): Buffer {
    const parts = [png.subarray(0, 8)];
    for (let at = 8; at < png.length;) {
      const end = at + 12 + png.readUInt32BE(at);
      const type = png.toString('latin1', at + 4, at + 8);
      if (type !== 'iTXt' && type !== 'tEXt') parts.push(png.subarray(at, end));
      at = end;
    }
    return Buffer.concat(parts);
  }

  it("someone else's file is left alone and the image takes the next free name", async () => {
    rig = await engineRig({ start: false, engine: { responseFormat: 'b64_json' } });
    const batch = rig.batch([{ seed: 5 }]);
    const [job] = jobsOf(rig.store, batch.id);
    const wanted = renderRelativePath(DEFAULT_TEMPLATE, namingInputFor(batch, job!, 1, 'png'));
    mkdirSync(join(rig.libraryDir, batch.dirName), { recursive: true });
    writeFileSync(join(rig.libraryDir, wanted), 'not an image of ours');
    await rig.engine.start();
    expect(await rig.engine.whenIdle()).toBe('done');
    const [image] = imagesOf(rig, batch.id);
    expect(image).toMatchObject({ downloadState: 'done' });
    expect(image!.relPath).toBe(wanted.replace(/\.png$/, '~2.png'));
    expect(sha256File(join(rig.libraryDir, image!.relPath!))).toBe(image!.sha256);
    expect(readFileSync(join(rig.libraryDir, wanted), 'utf8')).toBe('not an image of ours');
    expect(tempFiles(rig.libraryDir)).toEqual([]);
  });

  it('its own file, placed before a crash, is recognised by content: no second copy', async () => {
    rig = await engineRig({ engine: { responseFormat: 'b64_json' } });
    const batch = rig.batch(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.engine.stop();
    const [image] = imagesOf(rig, batch.id);
    const file = join(rig.libraryDir, image!.relPath!);
    // the crash: the file placed, its done mark (which drops the bytes) never committed
    rig.store.db
      .prepare(
        `UPDATE images SET download_state = 'downloading', has_payload = 1, sha256 = NULL,
           bytes = NULL WHERE id = ?`,
      )
      .run(image!.id);
    rig.store.db
      .prepare('INSERT INTO image_payloads (image_id, bytes) VALUES (?, ?)')
      .run(image!.id, withoutOurChunks(readFileSync(file)));

    await rig.newEngine().start();
    expect(await rig.engine.whenIdle()).toBe('done');
    const after = rig.store.images.get(image!.id)!;
    expect(after).toMatchObject({ downloadState: 'done', relPath: image!.relPath });
    expect(after.sha256).toBe(image!.sha256);
    expectDiskMatchesRows(rig, batch.id);
    expect(rig.gateway.ledger.entries()).toHaveLength(1);
  });

  // The crash came after the files were placed and their extras written, or some of them:
  // the restart finds the files in place and gives each what a written image gets, its
  // manifest row once.
  it.each([
    ['bytes in hand (b64_json): written again, found identical', 'b64_json'],
    ['a link (url): adopted without a download', 'url'],
  ] as const)('%s: sidecar and thumbnail again, no second manifest row', async (_, format) => {
    const extras = { sidecar: true, manifest: true, thumbnails: true };
    rig = await engineRig({ engine: { responseFormat: format, ...extras } });
    const batch = rig.batch(2);
    expect(await rig.engine.whenIdle()).toBe('done');
    await rig.engine.stop();
    const images = imagesOf(rig, batch.id);
    const batchDir = join(rig.libraryDir, batch.dirName);
    const manifest = join(batchDir, 'manifest.csv');
    const fileNames = images.map((image) => image.relPath!.slice(batch.dirName.length + 1));
    const listed = () => parseCsv(readFileSync(manifest, 'utf8')).map((row) => row[0]);
    // before the crash: the header, then one row per image
    expect(listed()[0]).toBe('file');
    expect(listed().slice(1).sort()).toEqual([...fileNames].sort());
    const sidecar = (name: string) => join(batchDir, name.replace(/\.png$/, '.json'));
    const thumbnail = (name: string) => join(batchDir, '.thumbs', `${name}.webp`);
    const [kept, lost] = fileNames;

    // the crash: both files placed, neither done mark committed; the second image's extras
    // never written (its manifest row, sidecar and thumbnail are missing)
    for (const image of images) {
      rig.store.db
        .prepare(
          `UPDATE images SET download_state = 'downloading', sha256 = NULL, bytes = NULL,
             has_payload = ? WHERE id = ?`,
        )
        .run(format === 'b64_json' ? 1 : 0, image.id);
      if (format === 'b64_json') {
        rig.store.db
          .prepare('INSERT INTO image_payloads (image_id, bytes) VALUES (?, ?)')
          .run(image.id, withoutOurChunks(readFileSync(join(rig.libraryDir, image.relPath!))));
      }
    }
    const rows = readFileSync(manifest, 'utf8').split('\r\n');
    writeFileSync(manifest, rows.filter((row) => !row.startsWith(`${lost},`)).join('\r\n'));
    rmSync(sidecar(lost!));
    rmSync(thumbnail(lost!));
    const keptSidecar = readFileSync(sidecar(kept!), 'utf8');
    // (a link asked again would fail: the url variant must adopt, not download)
    rig.gateway.setFaults('url-404:1');

    await rig.newEngine().start();
    expect(await rig.engine.whenIdle()).toBe('done');
    for (const image of imagesOf(rig, batch.id)) {
      expect(image).toMatchObject({ downloadState: 'done' });
      const before = images.find((i) => i.id === image.id)!;
      expect(image.sha256).toBe(before.sha256);
    }
    expect(listed().slice(1).sort()).toEqual([...fileNames].sort());
    const rowsAfter = parseCsv(readFileSync(manifest, 'utf8'));
    const lostRow = rowsAfter.find((row) => row[0] === lost)!;
    expect(lostRow[MANIFEST_COLUMNS.indexOf('sha256')]).toBe(images[1]!.sha256);
    for (const name of fileNames) {
      const doc = JSON.parse(readFileSync(sidecar(name!), 'utf8'));
      expect(doc.file.sha256).toBe(images[fileNames.indexOf(name)]!.sha256);
      expect(existsSync(thumbnail(name!))).toBe(true);
    }
    expect(readFileSync(sidecar(kept!), 'utf8')).toBe(keptSidecar);
    expect(rig.gateway.ledger.entries()).toHaveLength(2);
    expect(tempFiles(rig.libraryDir)).toEqual([]);
  });
});
