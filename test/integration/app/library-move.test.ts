import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppService } from '../../../main/core/app/app-service.ts';
import { MOVE_JOURNAL } from '../../../main/core/app/library-mover.ts';
import type { ApiEvent, EventBatch } from '../../../shared/api/events.ts';
import type { Api } from '../../../shared/api/types.ts';
import { libraryFiles } from '../../support/engine-harness.ts';
import { pollUntil } from '../../support/poll-until.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';

let dir: string;
let opened: TestService;
let service: AppService;
let api: Api;
let from: string;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-move-'));
  from = path.join(dir, 'library');
  await open();
});
afterEach(async () => {
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open() {
  opened = await openTestService(dir);
  ({ service, api } = opened);
}

/** Runs a small batch to the end: its images, thumbnails and manifest in the library. */
async function fill(rows = 4): Promise<number> {
  await service.startQueue();
  const batch = await api.batches.create({
    source: {
      kind: 'rows',
      rows: Array.from({ length: rows }, (_, i) => ({ prompt: `a fox ${i + 1}` })),
    },
    defaults: { model: 'flux-schnell', size: '64x64', response_format: 'b64_json' },
    name: 'Foxes',
  });
  await pollUntil(
    async () => (await api.batches.get({ id: batch.id })).downloads.done === rows,
    'the batch is written',
  );
  // (and its thumbnails, written beside each image in the same download slot)
  await service.engine!.whenIdle();
  return batch.id;
}

async function until(state: string) {
  await pollUntil(async () => (await api.library.moveStatus({}))?.state === state, state);
  return (await api.library.moveStatus({}))!;
}

function record(): ApiEvent[] {
  const events: ApiEvent[] = [];
  service.events.subscribe(null, (batch: EventBatch) => events.push(...batch.events));
  return events;
}

describe('moving the library', () => {
  it('moves every file to a new, empty folder, switches, and runs on there', async () => {
    const batchId = await fill();
    const before = libraryFiles(from);
    const events = record();
    const to = path.join(dir, 'elsewhere', 'pictures');
    const started = await api.library.move({ dir: to });
    expect(started).toMatchObject({ state: 'running', phase: 'copying', from, to });
    const done = await until('done');
    expect(done).toMatchObject({ total: before.length, done: before.length, leftBehind: [] });
    expect(libraryFiles(to)).toEqual(before);
    expect(existsSync(from)).toBe(false);
    expect(existsSync(path.join(dir, 'data', MOVE_JOURNAL))).toBe(false);
    expect((await api.library.info({})).libraryDir).toBe(to);
    // events are delivered in the hub's next turn, after the status reads done
    const lastMove = () => events.filter((e) => e.type === 'library.move').at(-1)?.payload.state;
    await expect.poll(lastMove).toBe('done');
    // the gallery finds its files there, and the queue writes there now
    const [image] = (await api.images.ids({ query: { batchId } })).ids;
    const detail = await api.images.get({ id: image! });
    expect(detail.path!.startsWith(to)).toBe(true);
    expect(readFileSync(detail.path!).length).toBe(detail.bytes);
    await fill(1);
    expect(libraryFiles(to).length).toBeGreaterThan(before.length);
  });

  it('refuses a folder that is not empty, inside the library, or not a full path', async () => {
    await fill(1);
    const full = path.join(dir, 'full');
    mkdirSync(full);
    writeFileSync(path.join(full, 'notes.txt'), 'mine');
    await expect(api.library.move({ dir: full })).rejects.toMatchObject({
      code: 'invalid-argument',
      message: expect.stringContaining('is not empty (1 item)'),
    });
    await expect(api.library.move({ dir: path.join(from, 'inner') })).rejects.toMatchObject({
      message: expect.stringContaining('is inside the library'),
    });
    await expect(api.library.move({ dir: 'relative/place' })).rejects.toMatchObject({
      message: expect.stringContaining('must be a full path'),
    });
    expect(readFileSync(path.join(full, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('never follows a link out of the library: it stays, and is said', async () => {
    await fill(1);
    const outside = path.join(dir, 'private.txt');
    writeFileSync(outside, 'not the library’s');
    symlinkSync(outside, path.join(from, 'Foxes', 'linked.txt'));
    const to = path.join(dir, 'moved');
    await api.library.move({ dir: to });
    const done = await until('done');
    expect(done.leftBehind).toEqual([
      { path: path.join('Foxes', 'linked.txt'), reason: expect.stringContaining('a link') },
    ]);
    expect(existsSync(path.join(to, 'Foxes', 'linked.txt'))).toBe(false);
    expect(readFileSync(outside, 'utf8')).toBe('not the library’s');
  });

  it('cancels while copying: the copies go, the library stays where it was', async () => {
    await fill(1);
    // many files, so the copy is still under way when it is canceled
    const filler = path.join(from, 'Foxes', 'filler');
    mkdirSync(filler);
    for (let i = 0; i < 1500; i++) writeFileSync(path.join(filler, `${i}.txt`), `file ${i}`);
    const before = libraryFiles(from);
    const to = path.join(dir, 'moved');
    await api.library.move({ dir: to });
    const canceled = await api.library.cancelMove({});
    expect(canceled).toMatchObject({ state: 'canceled' });
    expect(canceled!.done).toBeLessThan(before.length);
    expect(existsSync(to) ? readdirSync(to) : []).toEqual([]);
    expect(libraryFiles(from)).toEqual(before);
    expect((await api.library.info({})).libraryDir).toBe(from);
  });
});

describe('a move cut off by a crash', () => {
  /** What a crash while copying leaves: the journal, some copies, a temp file. */
  async function crashedWhileCopying(): Promise<string> {
    await fill(2);
    await opened.close();
    const to = path.join(dir, 'moved');
    const files = libraryFiles(from);
    for (const file of files.slice(0, 2)) {
      mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
      writeFileSync(path.join(to, file), readFileSync(path.join(from, file)));
    }
    writeFileSync(path.join(to, files[0]!.replace(/[^/]+$/, '.atelier-0000000000000001.tmp')), 'x');
    writeFileSync(
      path.join(dir, 'data', MOVE_JOURNAL),
      JSON.stringify({ version: 1, id: 'm1', from, to, phase: 'copying', startedAt: 1 }),
    );
    await open();
    return to;
  }

  it('leaves a library that works, and resumes', async () => {
    const to = await crashedWhileCopying();
    expect(await api.library.moveStatus({})).toMatchObject({
      state: 'interrupted',
      phase: 'copying',
      to,
    });
    expect((await api.library.info({})).libraryDir).toBe(from);
    const before = libraryFiles(from).filter((f) => !f.endsWith('.tmp'));
    await expect(api.library.move({ dir: path.join(dir, 'third') })).rejects.toMatchObject({
      code: 'conflict',
    });
    await api.library.resumeMove({});
    await until('done');
    expect(libraryFiles(to).filter((f) => !f.endsWith('.tmp'))).toEqual(before);
    expect((await api.library.info({})).libraryDir).toBe(to);
    expect(existsSync(from)).toBe(false);
  });

  it('or rolls back: its copies go, the library stays', async () => {
    const to = await crashedWhileCopying();
    const before = libraryFiles(from);
    const rolled = await api.library.rollbackMove({});
    expect(rolled).toMatchObject({ state: 'canceled' });
    expect(existsSync(to) ? libraryFiles(to) : []).toEqual([]);
    expect(libraryFiles(from)).toEqual(before);
    expect(await api.library.moveStatus({})).toMatchObject({ state: 'canceled' });
    expect(existsSync(path.join(dir, 'data', MOVE_JOURNAL))).toBe(false);
  });

  it('after the switch, only resumes: the old copies go, the library is the new folder', async () => {
    await fill(2);
    await opened.close();
    const to = path.join(dir, 'moved');
    const files = libraryFiles(from);
    for (const file of files) {
      mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
      writeFileSync(path.join(to, file), readFileSync(path.join(from, file)));
    }
    // the settings were switched; the crash came before the journal said so
    const settingsFile = path.join(dir, 'data', 'settings.json');
    const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(settingsFile, JSON.stringify({ ...settings, library: to }));
    writeFileSync(
      path.join(dir, 'data', MOVE_JOURNAL),
      JSON.stringify({ version: 1, id: 'm2', from, to, phase: 'copying', startedAt: 1 }),
    );
    await open();
    expect(await api.library.moveStatus({})).toMatchObject({
      state: 'interrupted',
      phase: 'removing',
    });
    await expect(api.library.rollbackMove({})).rejects.toMatchObject({ code: 'conflict' });
    await api.library.resumeMove({});
    await until('done');
    expect(existsSync(from)).toBe(false);
    expect(libraryFiles(to)).toEqual(files);
  });
});
