import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-zip-'));
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
    expect(existsSync(`${dest}.part`)).toBe(true);
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
