import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiEvent, EventBatch } from '../../../shared/api/events.ts';
import type { Api } from '../../../shared/api/types.ts';
import type { AppService } from '../../../main/core/app/app-service.ts';
import type { HostActions } from '../../../main/core/app/host.ts';
import { imageFiles } from '../../../main/core/library/discard-files.ts';
import { pollUntil } from '../../support/poll-until.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';

let dir: string;
let service: AppService;
let api: Api;
let opened: TestService | undefined;
let batchId: number;

/** Opens the service on `dir` with these host actions, and runs one batch of `n` images. */
async function openWith(actions: HostActions, n = 4): Promise<void> {
  if (opened) await opened.close();
  opened = await openTestService(dir, { actions });
  ({ service, api } = opened);
  await api.settings.update({ sidecar: true, thumbnails: true });
  await service.startQueue();
  const finished = until((events) => events.some((e) => e.type === 'batch.finished'));
  batchId = (
    await api.batches.create({
      source: { kind: 'rows', rows: Array.from({ length: n }, (_, i) => ({ prompt: `p ${i}` })) },
      defaults: { model: 'flux-schnell', size: '256x256', response_format: 'b64_json' },
      position: 'back',
    })
  ).id;
  await finished;
  // the sidecar and thumbnail may still be on their way when the image's row says done
  const { ids } = await api.images.ids({ query: {} });
  const files = (await filesOf(ids)).flat();
  await pollUntil(() => files.every((file) => existsSync(file)), 'every image has its extras');
}

function until(done: (events: ApiEvent[]) => boolean) {
  const seen: ApiEvent[] = [];
  return new Promise<ApiEvent[]>((resolve) => {
    const stop = service.events.subscribe(null, (batch: EventBatch) => {
      seen.push(...batch.events);
      if (done(seen)) {
        stop();
        resolve(seen);
      }
    });
  });
}

const deletedEvent = () =>
  until((events) => events.some((e) => e.type === 'images.deleted')).then(
    (events) => events.find((e) => e.type === 'images.deleted')!.payload,
  );

/** Every file of each image: [thumbnail, sidecar, image]. */
async function filesOf(ids: number[]): Promise<string[][]> {
  return Promise.all(ids.map(async (id) => imageFiles((await api.images.get({ id })).path!)));
}

/** A row for an image never written (its download `state`), in the batch's first job. */
function addUnwrittenImage(state: 'failed' | 'pending' | 'downloading'): number {
  const job = service.store.db.prepare('SELECT id FROM jobs WHERE batch_id = ? LIMIT 1');
  const { id: jobId } = job.get(batchId) as { id: number };
  return Number(
    service.store.db
      .prepare(
        // (due in the far future: the running engine leaves a pending one alone)
        `INSERT INTO images (job_id, batch_id, model, idx, source_url, download_state,
           next_download_at, created_at, updated_at)
         VALUES (?, ?, 'flux-schnell', (SELECT max(idx) + 1 FROM images WHERE job_id = ?),
           'https://x/', ?, 9e15, 1, 1)`,
      )
      .run(jobId, batchId, jobId, state).lastInsertRowid,
  );
}

beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'atelier-delete-')));
  opened = undefined;
});
afterEach(async () => {
  await opened?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('images.delete', () => {
  it('without a trash, removes the files and the rows, keeps the jobs and tells every client', async () => {
    await openWith({});
    const { ids } = await api.images.ids({ query: {} });
    expect(ids).toHaveLength(4);
    const chosen = ids.slice(0, 2);
    const files = await filesOf(chosen);
    // a file already gone is fine; a download that failed or waits has a row only
    unlinkSync(files[1]![0]!);
    const failed = addUnwrittenImage('failed');
    const pending = addUnwrittenImage('pending');
    const told = deletedEvent();
    // and the batch's download counts move with it, in the progress clients already read
    const counted = until((events) =>
      events.some(
        (e) => e.type === 'progress' && e.payload.batches.some((b) => b.downloads.done === 2),
      ),
    );

    const report = await api.images.delete({ ids: [...chosen, failed, pending, 424_242] });
    expect(report).toEqual({ deleted: 4, trashed: 0, removed: 5 });
    expect(files.flat().filter((file) => existsSync(file))).toEqual([]);
    expect((await told).ids.sort()).toEqual([...chosen, failed, pending].sort());
    expect((await counted).some((e) => e.type === 'batch.finished')).toBe(false);
    expect((await api.images.count({ query: {} })).total).toBe(2);
    expect(await api.images.byIds({ ids: chosen })).toEqual([]);
    const { name } = await api.batches.get({ id: batchId });
    expect(await api.images.groups({ query: {}, by: 'batch' })).toEqual({
      groups: [{ key: String(batchId), label: name, count: 2 }],
    });
    expect((await api.images.count({ query: { partial: true } })).total).toBe(0);
    const batch = await api.batches.get({ id: batchId });
    expect(batch.downloads).toMatchObject({ done: 2, failed: 0, pending: 0 });
    expect(batch.jobs).toMatchObject({ succeeded: 4 });
  });

  it('moves the files to the trash; an image that cannot be moved keeps its row, the rest go', async () => {
    const trashDir = path.join(dir, 'trash');
    mkdirSync(trashDir);
    const calls: string[][] = [];
    let refused = '';
    await openWith({
      async trash(paths) {
        calls.push(paths);
        for (const file of paths) {
          if (file === refused) throw new Error(`EACCES: permission denied, rename '${file}'`);
          renameSync(file, path.join(trashDir, `${calls.length}-${path.basename(file)}`));
        }
      },
    });
    const { ids } = await api.images.ids({ query: {} });
    const files = await filesOf(ids);
    refused = files[2]![2]!; // the third image itself; its thumbnail and sidecar go first
    const told = deletedEvent();

    const failure = await api.images.delete({ ids }).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: 'disk',
      message: expect.stringMatching(
        /^1 image could not be moved to the trash and was kept: .*permission denied.* 3 others were deleted\./,
      ),
    });
    expect(calls).toHaveLength(4);
    expect(calls.every((paths) => paths.length === 3)).toBe(true);
    expect((await told).ids.sort()).toEqual([ids[0], ids[1], ids[3]].sort());
    expect(existsSync(refused)).toBe(true);
    expect(await api.images.ids({ query: {} })).toMatchObject({ ids: [ids[2]], total: 1 });
    const left = [...files[0]!, ...files[1]!, ...files[3]!].filter((file) => existsSync(file));
    expect(left).toEqual([]);
  });

  it('refuses while one of the images is downloading, and touches nothing', async () => {
    await openWith({}, 1);
    const [written] = (await api.images.ids({ query: {} })).ids;
    const busy = addUnwrittenImage('downloading');
    const [files] = await filesOf([written!]);
    await expect(api.images.delete({ ids: [written!, busy] })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining(`1 image is downloading now (${busy})`),
    });
    expect(files!.filter((file) => !existsSync(file))).toEqual([]);
    expect(
      (await api.images.count({ query: { downloadStates: ['done', 'downloading'] } })).total,
    ).toBe(2);
  });

  it('never trashes or removes a file that a link in the library leads out to', async () => {
    const trashed: string[] = [];
    await openWith({
      async trash(paths) {
        for (const file of paths) {
          trashed.push(file);
          rmSync(file);
        }
      },
    });
    const outside = path.join(dir, 'outside');
    mkdirSync(outside);
    const secret = path.join(outside, 'secret.png');
    const notes = path.join(outside, 'notes.webp');
    writeFileSync(secret, 'the secret');
    writeFileSync(notes, 'my notes');
    const { ids } = await api.images.ids({ query: { order: 'oldest' } });
    const files = await filesOf(ids);
    // the first image is a link to a file outside; the second's thumbnail is one
    rmSync(files[0]![2]!);
    symlinkSync(secret, files[0]![2]!);
    rmSync(files[1]![0]!);
    symlinkSync(notes, files[1]![0]!);

    const failure = await api.images
      .delete({ ids: [ids[0]!, ids[1]!] })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: 'disk',
      message: expect.stringContaining(
        `1 image could not be moved to the trash and was kept: ${path.relative(
          path.join(dir, 'library'),
          files[0]![2]!,
        )}: Refusing to move to the trash ${files[0]![2]!}: a link on its way leads outside ` +
          `the library (${path.join(dir, 'library')}), to ${secret}.`,
      ),
    });
    expect(readFileSync(secret, 'utf8')).toBe('the secret');
    expect(readFileSync(notes, 'utf8')).toBe('my notes');
    expect(trashed).not.toContain(secret);
    expect(trashed).not.toContain(notes);
    // the second image went (its image and sidecar), its thumbnail link was left
    expect(trashed).toEqual([files[1]![1]!, files[1]![2]!]);
    expect((await api.images.ids({ query: {} })).ids).not.toContain(ids[1]);
    expect((await api.images.ids({ query: {} })).ids).toContain(ids[0]);
  });

  it('touches nothing of a batch whose folder is a link out of the library', async () => {
    await openWith({}, 1);
    const [id] = (await api.images.ids({ query: {} })).ids;
    const [files] = await filesOf([id!]);
    const batchDir = path.dirname(files![2]!);
    const moved = path.join(dir, 'moved-out');
    renameSync(batchDir, moved);
    symlinkSync(moved, batchDir);
    await expect(api.images.delete({ ids: [id!] })).rejects.toMatchObject({
      code: 'disk',
      message: expect.stringContaining('leads outside the library'),
    });
    expect(existsSync(path.join(moved, path.basename(files![2]!)))).toBe(true);
    expect(existsSync(path.join(moved, path.basename(files![1]!)))).toBe(true);
    expect((await api.images.ids({ query: {} })).ids).toEqual([id]);
  });
});

describe('images.reveal and images.openWithViewer', () => {
  it('hand the host the real path checked, never a file a link leads out to', async () => {
    const handed: string[] = [];
    await openWith(
      {
        reveal: async (file) => void handed.push(`reveal ${file}`),
        openWithViewer: async (file) => void handed.push(`open ${file}`),
      },
      2,
    );
    const { ids } = await api.images.ids({ query: { order: 'oldest' } });
    const [inside, linked] = await filesOf(ids);
    const secret = path.join(dir, 'secret.png');
    writeFileSync(secret, 'the secret');
    rmSync(linked![2]!);
    symlinkSync(secret, linked![2]!);
    await api.images.reveal({ id: ids[0]! });
    await api.images.openWithViewer({ id: ids[0]! });
    expect(handed).toEqual([`reveal ${inside![2]}`, `open ${inside![2]}`]);
    for (const call of [api.images.reveal, api.images.openWithViewer]) {
      await expect(call({ id: ids[1]! })).rejects.toMatchObject({
        code: 'disk',
        message: expect.stringContaining(`leads outside the library`),
      });
    }
    expect(handed).toHaveLength(2);
  });
});
