import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nameCandidates } from '../../../main/core/library/naming.ts';
import { URL_EXPIRED_CODE } from '../../../main/core/store/image-repository.ts';
import type { Store } from '../../../main/core/store/store.ts';
import { prompts, tempStore } from './temp-store.ts';

let store: Store;
let cleanup: () => void;
let jobId: number;
beforeEach(() => {
  ({ store, cleanup } = tempStore());
  store.batches.create({ name: 'b' }, prompts(2), 1);
  jobId = store.jobs.claimRunnable(1, 10)[0]!.id;
});
afterEach(() => cleanup());

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const file = { bytes: 11, sha256: 'ab', width: 1, height: 1, format: 'png', now: 50 };

/** The engine's success path: the job's success and its results in one transaction. */
function succeedWith(results: Parameters<Store['images']['addResults']>[1]) {
  return store.transaction(() => {
    store.jobs.succeed(jobId, { returnedN: results.length, now: 20 });
    return store.images.addResults(jobId, results, 20);
  });
}

describe('images and downloads', () => {
  it('stores a result before any download: URL, decoded base64, both', () => {
    const [url, b64, both] = succeedWith([
      { idx: 1, url: 'https://gw/tmp/1.png' },
      { idx: 2, b64: PNG.toString('base64'), revisedPrompt: 'revised' },
      { idx: 3, url: 'https://gw/tmp/3.png', b64: PNG },
    ]);
    expect(url).toMatchObject({
      downloadState: 'pending',
      hasPayload: false,
      sourceUrl: 'https://gw/tmp/1.png',
    });
    expect(b64).toMatchObject({ hasPayload: true, sourceUrl: null, revisedPrompt: 'revised' });
    expect(store.images.payload(b64!.id)).toEqual(PNG);
    expect(store.images.payload(both!.id)).toEqual(PNG);
    expect(store.images.payload(url!.id)).toBeUndefined();
  });

  it('refuses a result with nothing to download, and then keeps the job running', () => {
    expect(() => succeedWith([{ idx: 1 }])).toThrow('neither a URL nor base64');
    expect(store.jobs.get(jobId)!.state).toBe('running');
    expect(store.images.listForJob(jobId)).toEqual([]);
  });

  it('downloads: claim, reserve a path, done drops the stored bytes', () => {
    const [image] = succeedWith([{ idx: 1, b64: PNG }]);
    const [claimed] = store.images.claimDownloads(10, 30);
    expect(claimed).toMatchObject({
      id: image!.id,
      downloadState: 'downloading',
      downloadTries: 1,
    });
    expect(store.images.claimDownloads(10, 30)).toEqual([]);
    expect(() => store.images.markDone(image!.id, file)).toThrow('no reserved path');
    expect(store.images.reservePath(image!.id, 'b/0001-prompt-1.png', 40)).toBe(true);
    store.images.markDone(image!.id, file);
    expect(store.images.get(image!.id)).toMatchObject({
      downloadState: 'done',
      relPath: 'b/0001-prompt-1.png',
      hasPayload: false,
      sha256: 'ab',
    });
    expect(store.images.payload(image!.id)).toBeUndefined();
    expect(() => store.images.markDone(image!.id, file)).toThrow('from "done" to "done"');
  });

  it('reserves each name once, as a case-insensitive filesystem compares them', () => {
    const [a, b] = succeedWith([
      { idx: 1, url: 'u1' },
      { idx: 2, url: 'u2' },
    ]);
    expect(store.images.reservePath(a!.id, 'B/Fox.png', 1)).toBe(true);
    const chosen = [...nameCandidates('b/fox.PNG')].find((name) =>
      store.images.reservePath(b!.id, name, 1),
    );
    expect(chosen).toBe('b/fox~2.PNG');
    expect(store.images.isPathTaken('b/FOX.png')).toBe(true);
  });

  it('releases a reserved name for another image, but never the name of a file on disk', () => {
    const [a, b] = succeedWith([
      { idx: 1, url: 'u1' },
      { idx: 2, url: 'u2' },
    ]);
    store.images.claimDownloads(10, 30);
    expect(store.images.reservePath(a!.id, 'b/fox.png', 40)).toBe(true);
    expect(store.images.reservePath(b!.id, 'b/fox.png', 40)).toBe(false);

    expect(store.images.releasePath(a!.id, 50)).toBe(true);
    expect(store.images.get(a!.id)).toMatchObject({ relPath: null, updatedAt: 50 });
    expect(store.images.isPathTaken('b/FOX.png')).toBe(false);
    expect(store.images.reservePath(b!.id, 'b/fox.png', 60)).toBe(true);
    store.images.markDone(b!.id, file);
    expect(() => store.images.markDone(a!.id, file)).toThrow('no reserved path');

    expect(store.images.releasePath(b!.id, 70)).toBe(false);
    expect(store.images.get(b!.id)).toMatchObject({ relPath: 'b/fox.png', downloadState: 'done' });
    expect(store.images.isPathTaken('b/fox.png')).toBe(true);
    expect(() => store.images.releasePath(9999, 70)).toThrow('Image 9999 does not exist');
  });

  it('gives an interrupted download its try back', () => {
    const [image] = succeedWith([{ idx: 1, url: 'https://gw/tmp/1.png' }]);
    store.images.claimDownloads(1, 30);
    expect(store.images.get(image!.id)!.downloadTries).toBe(1);
    store.images.markDownloadFailed(image!.id, {
      code: 'interrupted',
      reason: 'stopped',
      retryAt: 30,
      now: 30,
      refundTry: true,
    });
    expect(store.images.get(image!.id)).toMatchObject({
      downloadState: 'pending',
      downloadTries: 0,
    });
  });

  it('retries a failed download with backoff, then fails it with the reason', () => {
    const [image] = succeedWith([{ idx: 1, url: 'https://gw/tmp/1.png' }]);
    store.images.claimDownloads(1, 30);
    store.images.markDownloadFailed(image!.id, {
      code: 'http-503',
      reason: '503',
      retryAt: 100,
      now: 31,
    });
    expect(store.images.claimDownloads(1, 99)).toEqual([]);
    expect(store.images.claimDownloads(1, 100)).toHaveLength(1);
    store.images.markDownloadFailed(image!.id, {
      code: 'file_server_error',
      reason: 'The file server failed (500).',
      retryAt: null,
      now: 101,
    });
    expect(store.images.get(image!.id)).toMatchObject({
      downloadState: 'failed',
      failureCode: 'file_server_error',
      downloadTries: 2,
    });
    expect(store.images.counts()).toMatchObject({ failed: 1, pending: 0 });
    expect(store.images.listFailed().map((i) => i.id)).toEqual([image!.id]);

    // "retry downloads": from the stored URL, the job itself is not touched
    const jobBefore = store.jobs.get(jobId);
    expect(store.images.retryFailedDownloads(200)).toBe(1);
    expect(store.images.get(image!.id)).toMatchObject({
      downloadState: 'pending',
      downloadTries: 0,
    });
    expect(store.jobs.get(jobId)).toEqual(jobBefore);
  });

  it('"retry downloads" queues every failed download, links that expired included', () => {
    const [expired, expiredWithBytes, serverError, noCode] = succeedWith([
      { idx: 1, url: 'https://gw/tmp/1.png' },
      { idx: 2, url: 'https://gw/tmp/2.png', b64: PNG },
      { idx: 3, url: 'https://gw/tmp/3.png' },
      { idx: 4, url: 'https://gw/tmp/4.png' },
    ]);
    expect(store.images.claimDownloads(10, 30)).toHaveLength(4);
    const fail = (id: number, code: string) =>
      store.images.markDownloadFailed(id, { code, reason: code, retryAt: null, now: 31 });
    fail(expired!.id, URL_EXPIRED_CODE);
    fail(expiredWithBytes!.id, URL_EXPIRED_CODE);
    fail(serverError!.id, 'file_server_error');
    fail(noCode!.id, 'x');
    // (a failure stored without a code must not be mistaken for an expired link)
    store.db.prepare('UPDATE images SET failure_code = NULL WHERE id = ?').run(noCode!.id);
    const batchId = store.jobs.get(jobId)!.batchId;
    expect(store.images.countExpiredLinks()).toBe(1);
    expect(store.images.countExpiredLinks(batchId)).toBe(1);
    expect(store.images.listExpiredLinks().map((i) => i.id)).toEqual([expired!.id]);

    // another batch's scope queues nothing of this one
    const other = store.batches.create({ name: 'other' }, prompts(1), 40);
    expect(store.images.retryFailedDownloads(50, other.id)).toBe(0);

    expect(store.images.retryFailedDownloads(50, batchId)).toBe(4);
    for (const image of [expired, expiredWithBytes, serverError, noCode]) {
      expect(store.images.get(image!.id)).toMatchObject({
        downloadState: 'pending',
        downloadTries: 0,
      });
    }
    expect(store.images.counts(batchId)).toMatchObject({ failed: 0, pending: 4 });
    expect(store.images.countExpiredLinks()).toBe(0);
    expect(store.images.retryFailedDownloads(60)).toBe(0);

    // resume's retry of disk failures only (codes) leaves an expired link alone
    store.images.claimDownloads(10, 70);
    fail(expired!.id, URL_EXPIRED_CODE);
    expect(store.images.retryFailedDownloads(80, undefined, ['disk-full'])).toBe(0);
    expect(store.images.countExpiredLinks()).toBe(1);
  });

  it('resumes downloads cut short by a crash', () => {
    const [image] = succeedWith([{ idx: 1, url: 'u' }]);
    store.images.claimDownloads(1, 30);
    expect(store.images.resumeInterrupted(40)).toBe(1);
    expect(store.images.get(image!.id)!.downloadState).toBe('pending');
    expect(store.images.counts(store.jobs.get(jobId)!.batchId)).toMatchObject({ pending: 1 });
  });
});

describe('attempts', () => {
  it('logs each request and copies its request ids onto the job', () => {
    const first = store.attempts.start(jobId, 10);
    store.attempts.finish(first, {
      now: 15,
      outcome: 'retry',
      httpStatus: 429,
      requestId: 'req-1',
      errorCode: 'rate_limit',
      decision: 'retry',
      retryAfterMs: 2000,
    });
    const second = store.attempts.start(jobId, 20);
    store.attempts.finish(second, {
      now: 25,
      outcome: 'uncertain',
      httpStatus: 504,
      requestId: 'req-2',
      upstreamRequestId: 'up-2',
    });
    expect(store.attempts.listForJob(jobId)).toMatchObject([
      { startedAt: 10, endedAt: 15, httpStatus: 429, requestId: 'req-1', retryAfterMs: 2000 },
      { startedAt: 20, endedAt: 25, outcome: 'uncertain', upstreamRequestId: 'up-2' },
    ]);
    expect(store.jobs.get(jobId)).toMatchObject({
      lastRequestId: 'req-2',
      lastUpstreamRequestId: 'up-2',
    });
    expect(() => store.attempts.finish(second, { now: 30, outcome: 'failed' })).toThrow(
      'already finished',
    );
  });

  it('reserves a name with the row of a download under way, and only then', () => {
    const [named, pending] = store.transaction(() => {
      store.jobs.succeed(jobId, { returnedN: 1, now: 20 });
      const [downloading] = store.images.addResults(
        jobId,
        [{ idx: 1, b64: PNG, relPath: 'B/Fox.png' }],
        20,
        { downloading: true },
      );
      const [waiting] = store.images.addResults(
        jobId,
        [{ idx: 2, b64: PNG, relPath: 'b/other.png' }],
        20,
      );
      return [downloading, waiting];
    });
    expect(named).toMatchObject({ downloadState: 'downloading', relPath: 'B/Fox.png' });
    // taken as the file system would compare it: case-insensitively
    expect(store.images.isPathTaken('b/fox.png')).toBe(true);
    expect(pending).toMatchObject({ downloadState: 'pending', relPath: null });
    expect(store.images.isPathTaken('b/other.png')).toBe(false);
    store.images.markDone(named!.id, file);
    expect(store.images.get(named!.id)).toMatchObject({
      downloadState: 'done',
      relPath: 'B/Fox.png',
    });
  });

  it('stores results already downloading when the engine writes them from memory at once', () => {
    const [image] = store.transaction(() => {
      store.jobs.succeed(jobId, { returnedN: 1, now: 20 });
      return store.images.addResults(jobId, [{ idx: 1, b64: PNG }], 20, { downloading: true });
    });
    expect(image).toMatchObject({
      downloadState: 'downloading',
      downloadTries: 1,
      hasPayload: true,
    });
    // nobody else claims it, and it can be finished like any claimed download
    expect(store.images.claimDownloads(10, 30)).toEqual([]);
    expect(store.images.reservePath(image!.id, 'b/1.png', 30)).toBe(true);
    store.images.markDone(image!.id, file);
    expect(store.images.get(image!.id)).toMatchObject({ downloadState: 'done', hasPayload: false });
  });

  it('keeps download counts per batch equal to the images, through every change and a delete', () => {
    const byScan = (batchId?: number) => {
      const rows = store.db
        .prepare(
          `SELECT i.download_state AS state, count(*) AS n FROM images AS i
           JOIN jobs AS j ON j.id = i.job_id WHERE @batch IS NULL OR j.batch_id = @batch
           GROUP BY 1`,
        )
        .all({ batch: batchId ?? null }) as Array<{ state: string; n: number }>;
      return {
        pending: 0,
        downloading: 0,
        done: 0,
        failed: 0,
        ...Object.fromEntries(rows.map((r) => [r.state, r.n])),
      };
    };
    const batchId = store.jobs.get(jobId)!.batchId;
    const other = store.batches.create({ name: 'other' }, prompts(1), 1);
    const otherJob = store.jobs.claimRunnable(5, 10).find((job) => job.batchId === other.id)!;
    const [a, b] = succeedWith([
      { idx: 1, url: 'https://gw/tmp/1.png' },
      { idx: 2, b64: PNG },
      { idx: 3, b64: PNG },
    ]);
    store.transaction(() => {
      store.jobs.succeed(otherJob.id, { returnedN: 1, now: 20 });
      store.images.addResults(otherJob.id, [{ idx: 1, b64: PNG }], 20, { downloading: true });
    });
    const claimed = store.images.claimDownloads(2, 30);
    store.images.markDownloadFailed(a!.id, {
      code: 'url-expired',
      reason: 'gone',
      retryAt: null,
      now: 40,
    });
    store.images.reservePath(b!.id, 'b/2.png', 40);
    store.images.markDone(b!.id, file);
    expect(claimed).toHaveLength(2);
    expect(store.images.counts(batchId)).toEqual(byScan(batchId));
    expect(store.images.counts(other.id)).toEqual(byScan(other.id));
    expect(store.images.counts()).toEqual(byScan());
    expect(store.images.counts(batchId)).toMatchObject({ failed: 1, done: 1, pending: 1 });

    store.db.prepare('DELETE FROM batches WHERE id = ?').run(other.id);
    expect(store.images.counts()).toEqual(byScan());
    expect(store.images.counts(other.id)).toEqual({
      pending: 0,
      downloading: 0,
      done: 0,
      failed: 0,
    });
  });
});
