import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExportRunner, type ExportProgress } from '../../../main/core/export/export-runner.ts';
import type { ExportRecord } from '../../../main/core/export/manifest-rows.ts';
import { writeExportZip } from '../../../main/core/export/zip-export.ts';
import { silentLogger } from '../../../main/core/logger.ts';
import { readZip } from '../../support/read-zip.ts';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'atelier-zip-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A real file in the temporary folder, and its record. */
function image(n: number, bytes: Buffer = randomBytes(1_000)): ExportRecord {
  const relPath = `batch/${n}.png`;
  const absolutePath = path.join(dir, `${n}.png`);
  writeFileSync(absolutePath, bytes);
  return {
    imageId: n,
    relPath,
    absolutePath,
    libraryDir: dir,
    batch: 'batch',
    prompt: `prompt ${n}`,
    revisedPrompt: null,
    negativePrompt: null,
    model: 'm',
    size: null,
    width: 1,
    height: 1,
    format: 'png',
    bytes: bytes.length,
    seed: null,
    params: {},
    favorite: false,
    createdAt: 0,
    sha256: null,
    requestId: null,
    upstreamRequestId: null,
  };
}

/** Yields the first record, then waits until `open()` is called before the rest. */
function gated(records: ExportRecord[]) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  async function* generate() {
    yield records[0]!;
    await gate;
    yield* records.slice(1);
  }
  return { records: generate(), open: () => open() };
}

describe('writeExportZip', () => {
  it('streams a file bigger than its buffers byte for byte', async () => {
    const big = randomBytes(12 * 1024 * 1024);
    const dest = path.join(dir, 'out.zip');
    const report = await writeExportZip({ dest, records: [image(1, big), image(2)] });
    expect(report).toMatchObject({ written: 2, missing: 0, done: 2 });
    const entries = await readZip(dest);
    expect(entries.map((e) => e.name)).toEqual(['batch/1.png', 'batch/2.png', 'manifest.csv']);
    expect(entries[0]!.data.equals(big)).toBe(true);
  });

  it('removes its part files when aborted midway, and writes no zip', async () => {
    const dest = path.join(dir, 'out.zip');
    const abort = new AbortController();
    const { records } = gated([image(1), image(2)]);
    const writing = writeExportZip({
      dest,
      records,
      signal: abort.signal,
      onProgress: ({ done }) => {
        if (done === 1) abort.abort();
      },
    });
    await expect(writing).rejects.toBeDefined();
    expect(readdirSync(dir).filter((f) => !f.endsWith('.png'))).toEqual([]);
    expect(existsSync(dest)).toBe(false);
  });

  it('never touches files of the same names as its own part files, whatever happens', async () => {
    const dest = path.join(dir, 'out.zip');
    // the person's own files, named as the part files were named before
    writeFileSync(`${dest}.part`, 'my notes');
    writeFileSync(`${dest}.manifest.part`, 'my list');
    await writeExportZip({ dest, records: [image(1)] });
    const abort = new AbortController();
    const { records } = gated([image(2), image(3)]);
    const canceled = writeExportZip({
      dest: path.join(dir, 'other.zip'),
      records,
      signal: abort.signal,
      onProgress: ({ done }) => done === 1 && abort.abort(),
    });
    await expect(canceled).rejects.toBeDefined();
    expect(readFileSync(`${dest}.part`, 'utf8')).toBe('my notes');
    expect(readFileSync(`${dest}.manifest.part`, 'utf8')).toBe('my list');
    expect(readdirSync(dir).sort()).toEqual(
      ['1.png', '2.png', '3.png', 'out.zip', 'out.zip.manifest.part', 'out.zip.part'].sort(),
    );
  });

  it('never replaces a file that appeared at the destination while it wrote', async () => {
    const dest = path.join(dir, 'out.zip');
    const { records, open } = gated([image(1), image(2)]);
    const writing = writeExportZip({
      dest,
      records,
      onProgress: ({ done }) => {
        if (done !== 1) return;
        writeFileSync(dest, 'arrived meanwhile');
        open();
      },
    });
    await expect(writing).rejects.toThrow(/a file appeared at .*out\.zip.*left as it is/);
    expect(readFileSync(dest, 'utf8')).toBe('arrived meanwhile');
    expect(readdirSync(dir).sort()).toEqual(['1.png', '2.png', 'out.zip']);
  });

  it('replaces only the very file the person agreed to replace in the save dialog', async () => {
    const dest = path.join(dir, 'out.zip');
    writeFileSync(dest, 'old export');
    await writeExportZip({ dest, replaces: await open(dest, 'r'), records: [image(1)] });
    expect((await readZip(dest)).map((e) => e.name)).toEqual(['batch/1.png', 'manifest.csv']);
    // another file put there since the dialog asked: left alone
    const chosen = path.join(dir, 'chosen.zip');
    writeFileSync(chosen, 'asked about');
    const asked = await open(chosen, 'r');
    rmSync(chosen);
    writeFileSync(chosen, 'put there since');
    await expect(writeExportZip({ dest: chosen, replaces: asked, records: [] })).rejects.toThrow(
      /appeared/,
    );
    expect(readFileSync(chosen, 'utf8')).toBe('put there since');
  });

  it('packs no file that a link inside the library leads out to, and says so', async () => {
    const library = path.join(dir, 'library');
    const outside = path.join(dir, 'outside');
    mkdirSync(path.join(library, 'batch'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'secret.png'), 'the secret');
    symlinkSync(path.join(outside, 'secret.png'), path.join(library, 'batch', 'linked.png'));
    symlinkSync(outside, path.join(library, 'linked-batch'));
    const kept = image(1);
    const record = (n: number, relPath: string): ExportRecord => ({
      ...image(n),
      relPath,
      absolutePath: path.join(library, relPath),
      libraryDir: library,
    });
    writeFileSync(path.join(library, 'batch', 'real.png'), 'mine');
    const dest = path.join(dir, 'out.zip');
    const report = await writeExportZip({
      dest,
      records: [
        record(2, 'batch/linked.png'),
        record(3, 'linked-batch/secret.png'),
        record(4, 'batch/real.png'),
        { ...kept, libraryDir: library }, // a path outside the library as text
      ],
    });
    expect(report).toMatchObject({ written: 1, missing: 3, done: 4 });
    const entries = await readZip(dest);
    expect(entries.map((e) => e.name)).toEqual(['batch/real.png', 'manifest.csv']);
    expect(entries.some((e) => e.data.toString().includes('the secret'))).toBe(false);
    const manifest = entries[1]!.data.toString('utf8');
    expect(manifest).toContain(
      `not in the zip: batch/linked.png leads outside the library, to ${outside}/secret.png`,
    );
    expect(manifest).toContain(
      `not in the zip: linked-batch/secret.png leads outside the library, to ${outside}/secret.png`,
    );
  });

  it("fails with the disk's error when the destination cannot be written", async () => {
    const notAFolder = path.join(dir, 'file');
    writeFileSync(notAFolder, 'x');
    await expect(
      writeExportZip({ dest: path.join(notAFolder, 'out.zip'), records: [image(1)] }),
    ).rejects.toMatchObject({ code: 'ENOTDIR' });
  });
});

describe('ExportRunner', () => {
  it('cancels a running export: state canceled, part file gone', async () => {
    const sent: ExportProgress[] = [];
    let first!: () => void;
    const started = new Promise<void>((resolve) => (first = resolve));
    const runner = new ExportRunner({
      logger: silentLogger,
      intervalMs: 0,
      publish: (p) => {
        sent.push(p);
        if (p.done === 1) first();
      },
    });
    const dest = path.join(dir, 'out.zip');
    const id = runner.start({ path: dest, total: 2, records: gated([image(1), image(2)]).records });
    expect(runner.writes(dest)).toBe(true);
    await started;
    expect(readdirSync(dir).filter((f) => f.endsWith('.part'))).toHaveLength(2);
    expect(await runner.cancel(id)).toBe(true);
    expect(runner.get(id)).toMatchObject({ state: 'canceled', done: 1, total: 2, error: null });
    expect(sent.at(-1)).toMatchObject({ state: 'canceled' });
    expect(readdirSync(dir).filter((f) => !f.endsWith('.png'))).toEqual([]);
    expect(runner.writes(dest)).toBe(false);
    expect(await runner.cancel('unknown')).toBe(false);
  });

  it('says an export failed, and why', async () => {
    const sent: ExportProgress[] = [];
    const runner = new ExportRunner({ logger: silentLogger, publish: (p) => sent.push(p) });
    const missingFolderFile = path.join(dir, 'file');
    writeFileSync(missingFolderFile, 'x');
    const id = runner.start({
      path: path.join(missingFolderFile, 'o.zip'),
      total: 1,
      records: [image(1)],
    });
    await expect.poll(() => runner.get(id)?.state).toBe('failed');
    expect(runner.get(id)!.error).toMatch(/^The export failed: .*ENOTDIR/);
    expect(sent.at(-1)).toMatchObject({ state: 'failed' });
  });

  it('sends at most about ten progress events a second, and always the last', async () => {
    const sent: ExportProgress[] = [];
    const runner = new ExportRunner({ logger: silentLogger, publish: (p) => sent.push(p) });
    const records = Array.from({ length: 300 }, (_, i) => image(i + 1, randomBytes(100)));
    const startedAt = Date.now();
    const id = runner.start({ path: path.join(dir, 'many.zip'), total: 300, records });
    await expect.poll(() => runner.get(id)?.state, { timeout: 10_000 }).toBe('done');
    const seconds = (Date.now() - startedAt) / 1000;
    expect(sent.length).toBeLessThanOrEqual(Math.ceil(seconds * 10) + 3);
    expect(sent.at(-1)).toMatchObject({ state: 'done', done: 300, total: 300 });
  });
});
