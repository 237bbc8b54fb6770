import type { ServerResponse } from 'node:http';
import { crc32, deflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  baseJob,
  engineRig,
  jobsOf,
  tempFiles,
  type EngineRig,
} from '../../support/engine-harness.ts';
import {
  b64Answer,
  hostileRig,
  htmlThenPictures,
  linkAnswer,
  type HostileRig,
} from '../../support/hostile-gateway.ts';
import { makeImage } from '../../support/library-fixtures.ts';
import { pollUntil } from '../../support/poll-until.ts';

// What a hostile or broken gateway can make the engine do: bodies that never end or stall,
// results that are not images. Small caps and idle times are injected: no long waits.

let rig: HostileRig | null = null;
let simRig: EngineRig | null = null;
afterEach(async () => {
  await rig?.close();
  await simRig?.close();
  rig = null;
  simRig = null;
});

const GENERATE = 'POST /v1/images/generations';
const isGenerate = (method?: string, url?: string) => `${method} ${url}` === GENERATE;

function imagesOf(r: HostileRig, batchId: number) {
  return jobsOf(r.store, batchId).flatMap((job) => r.store.images.listForJob(job.id));
}

/** Writes `chunk` again and again until the client goes away (or `limit` bytes, a safety net). */
function endless(response: ServerResponse, chunk: Buffer, limit = 64 * 1024 * 1024): void {
  let sent = 0;
  const more = () => {
    while (sent < limit && !response.destroyed) {
      sent += chunk.length;
      if (!response.write(chunk)) return void response.once('drain', more);
    }
    response.end();
  };
  more();
}

/** A structurally whole PNG whose header claims `width`×`height`. */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('download limits', () => {
  it('a body that never ends stops at maxImageBytes: a final failure, not retried, no temp file', async () => {
    const png = await makeImage('png', 16, 16);
    rig = await hostileRig(
      (req, res, { url }) => {
        if (isGenerate(req.method, req.url)) return linkAnswer(res, [`${url}/files/endless.png`]);
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(png.subarray(0, 33)); // a real PNG header, then junk for ever
        endless(res, Buffer.alloc(16 * 1024, 7));
      },
      { engine: { maxImageBytes: 256 * 1024 } },
    );
    const batch = rig.batch(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    const [image] = imagesOf(rig, batch);
    expect(image).toMatchObject({ downloadState: 'failed', failureCode: 'too-large' });
    expect(image!.downloadTries).toBe(1);
    expect(image!.failureReason).toMatch(/larger than the 0\.25 MB limit/);
    expect(image!.failureReason).not.toMatch(/tried again/);
    expect(image!.sourceUrl).toMatch(/\/files\/endless\.png$/);
    expect(rig.gateway.requests.filter((line) => line.includes('/files/'))).toHaveLength(1);
    expect(tempFiles(rig.libraryDir)).toEqual([]);
    expect(jobsOf(rig.store, batch)[0]!.state).toBe('succeeded');
  });

  it('a Content-Length beyond the cap is refused before any byte is read', async () => {
    rig = await hostileRig(
      (req, res, { url }) => {
        if (isGenerate(req.method, req.url)) return linkAnswer(res, [`${url}/files/huge.png`]);
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(2 ** 30) });
        res.end(Buffer.alloc(64 * 1024)); // then the connection closes, far short
      },
      { engine: { maxImageBytes: 1024 * 1024 } },
    );
    const batch = rig.batch(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    const [image] = imagesOf(rig, batch);
    expect(image).toMatchObject({ downloadState: 'failed', failureCode: 'too-large' });
    expect(image!.downloadTries).toBe(1);
    expect(image!.failureReason).toMatch(/1024 MB .*larger than the 1 MB limit/);
    expect(tempFiles(rig.libraryDir)).toEqual([]);
  });

  it('a body that stalls times out after downloadIdleMs and is tried again', async () => {
    const png = await makeImage('png', 16, 16);
    rig = await hostileRig(
      (req, res, { url, hits }) => {
        if (isGenerate(req.method, req.url)) return linkAnswer(res, [`${url}/files/slow.png`]);
        res.writeHead(200, { 'content-type': 'image/png' });
        if (hits('/files/slow.png') === 1) return void res.write(png.subarray(0, 40)); // stalls
        res.end(png);
      },
      { engine: { downloadIdleMs: 100 } },
    );
    const batch = rig.batch(1);
    const started = Date.now();
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(Date.now() - started).toBeLessThan(5_000);
    const [image] = imagesOf(rig, batch);
    expect(image).toMatchObject({
      downloadState: 'done',
      downloadTries: 2,
      bytes: expect.any(Number),
    });
    expect(tempFiles(rig.libraryDir)).toEqual([]);
  });

  it('a small image announced by its Content-Length is read whole: a stall and a short body are tried again, then it is written the same as a streamed one', async () => {
    const png = await makeImage('png', 16, 16);
    const announced = { 'content-type': 'image/png', 'content-length': String(png.length) };
    rig = await hostileRig(
      (req, res, { url, hits }) => {
        if (isGenerate(req.method, req.url)) {
          const first = hits('/v1/images/generations') === 1;
          return linkAnswer(res, [`${url}/files/${first ? 'small' : 'streamed'}.png`]);
        }
        if (req.url === '/files/streamed.png') {
          res.writeHead(200, { 'content-type': 'image/png' }); // no length: streamed to disk
          return void res.end(png);
        }
        const hit = hits('/files/small.png');
        res.writeHead(200, announced);
        if (hit === 1) return void res.write(png.subarray(0, 40)); // stalls
        if (hit === 2) return void res.destroy(); // headers, then the connection drops
        res.end(png);
      },
      { engine: { downloadIdleMs: 100 } },
    );
    const batch = rig.batch(2);
    expect(await rig.engine.whenIdle()).toBe('done');
    const images = imagesOf(rig, batch).sort((a, b) => a.sourceUrl!.localeCompare(b.sourceUrl!));
    expect(images.map((image) => [image.downloadState, image.downloadTries])).toEqual([
      ['done', 3],
      ['done', 1],
    ]);
    // written alike: the same picture with its metadata embedded, of the same size
    expect(images[0]!.bytes).toBeGreaterThan(png.length);
    expect(Math.abs(images[0]!.bytes! - images[1]!.bytes!)).toBeLessThan(8);
    expect(tempFiles(rig.libraryDir)).toEqual([]);
  });

  it('a body that always stalls fails after its tries, without promising another', async () => {
    rig = await hostileRig(
      (req, res, { url }) => {
        if (isGenerate(req.method, req.url)) return linkAnswer(res, [`${url}/files/stuck.png`]);
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(Buffer.from([0x89, 0x50, 0x4e, 0x47])); // and nothing more, ever
      },
      { engine: { downloadIdleMs: 50 } },
    );
    const batch = rig.batch(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    const [image] = imagesOf(rig, batch);
    expect(image).toMatchObject({
      downloadState: 'failed',
      failureCode: 'stalled',
      downloadTries: 5,
    });
    expect(image!.failureReason).toMatch(/No data arrived for 50 ms/);
    expect(image!.failureReason).not.toMatch(/tried again/);
    expect(image!.failureReason).toMatch(/Atelier gave up after 5 tries/);
  });

  it('a graceful stop (the first Ctrl+C) aborts a download in progress after its grace; it stays pending with its link', async () => {
    rig = await hostileRig(
      (req, res, { url }) => {
        if (isGenerate(req.method, req.url)) return linkAnswer(res, [`${url}/files/forever.png`]);
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(Buffer.from([0x89, 0x50, 0x4e, 0x47])); // and nothing more, ever
      },
      { engine: { stopGraceMs: 200 } },
    );
    const batch = rig.batch(1);
    await pollUntil(() => rig!.engine.progress().downloading === 1, 'the download is in progress');
    await pollUntil(
      () => rig!.gateway.requests.some((line) => line.includes('/files/')),
      'it is read',
    );
    const stopping = Date.now();
    await rig.engine.stop();
    expect(Date.now() - stopping).toBeGreaterThanOrEqual(200);
    expect(Date.now() - stopping).toBeLessThan(1_500);
    const [image] = imagesOf(rig, batch);
    expect(image).toMatchObject({
      downloadState: 'pending',
      downloadTries: 0,
      failureCode: 'interrupted',
    });
    expect(image!.sourceUrl).toMatch(/\/files\/forever\.png$/);
    expect(jobsOf(rig.store, batch)[0]!.state).toBe('succeeded');
    expect(tempFiles(rig.libraryDir)).toEqual([]);
  });

  it('a video larger than maxVideoBytes fails as too large, not retried', async () => {
    simRig = await engineRig({
      gateway: { videoDurationMs: 50 },
      engine: { videoPoll: { initialMs: 10, maxMs: 40 }, maxVideoBytes: 100 },
    });
    const batch = simRig.batch([
      { kind: 'video', model: 'sora-2', size: '720x1280', params: { seconds: '4' } },
    ]);
    expect(await simRig.engine.whenIdle()).toBe('done');
    const [job] = jobsOf(simRig.store, batch.id);
    const [video] = simRig.store.images.listForJob(job!.id);
    expect(video).toMatchObject({
      downloadState: 'failed',
      failureCode: 'too-large',
      downloadTries: 1,
    });
    expect(video!.failureReason).toMatch(/--max-video-mb/);
    expect(tempFiles(simRig.libraryDir)).toEqual([]);
  });
});

describe('a result that is not an image', () => {
  it('b64 text: the job fails as not-an-image with its reason, once; retry --failed asks again', async () => {
    const png = await makeImage('png', 16, 16);
    let answers = 0;
    rig = await hostileRig((req, res) => {
      if (!isGenerate(req.method, req.url)) return void res.writeHead(404).end();
      answers++;
      b64Answer(
        res,
        [answers === 1 ? Buffer.from('<html>Service busy</html>') : png],
        `req_${answers}`,
      );
    });
    const batch = rig.batch(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    const [job] = jobsOf(rig.store, batch);
    expect(job).toMatchObject({
      state: 'failed',
      failureKind: 'not-an-image',
      errorCode: 'not_an_image',
    });
    expect(job!.errorMessage).toMatch(/not an image/);
    expect(job!.errorMessage).toContain('<html>Service busy');
    expect(job!.errorMessage).toContain('req_1');
    expect(job!.lastRequestId).toBe('req_1');
    expect(answers).toBe(1); // not retried automatically
    expect(rig.store.images.listForJob(job!.id)).toEqual([]);
    expect(rig.engine.progress().requestsSent).toBe(1);

    expect(rig.engine.retryFailed()).toBe(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(rig.store.jobs.get(job!.id)).toMatchObject({ state: 'succeeded', returnedN: 1 });
    expect(rig.store.images.listForJob(job!.id)[0]).toMatchObject({ downloadState: 'done' });
    expect(answers).toBe(2);
  });

  it('a PNG whose header claims 100000×100000 is over the pixel limit: not-an-image', async () => {
    rig = await hostileRig((req, res) => {
      if (!isGenerate(req.method, req.url)) return void res.writeHead(404).end();
      b64Answer(res, [pngClaiming(100_000, 100_000)]);
    });
    const batch = rig.batch(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    const [job] = jobsOf(rig.store, batch);
    expect(job).toMatchObject({ state: 'failed', failureKind: 'not-an-image' });
    expect(job!.errorMessage).toMatch(/100000x100000/);
    expect(job!.errorMessage).toMatch(/100-megapixel limit/);
    expect(rig.gateway.requests.filter((line) => line === GENERATE)).toHaveLength(1);
  });

  it('n = 2 with one good image and one not: the good one is kept, a partial success', async () => {
    const png = await makeImage('png', 16, 16);
    rig = await hostileRig((req, res) => {
      if (!isGenerate(req.method, req.url)) return void res.writeHead(404).end();
      b64Answer(res, [png, Buffer.from('{"error":"oops"}')]);
    });
    const id = rig.store.batches.create(
      { name: 'two' },
      [{ prompt: 'p', model: 'flux-schnell', size: '16x16', n: 2 }],
      Date.now(),
    ).id;
    expect(await rig.engine.whenIdle()).toBe('done');
    const [job] = jobsOf(rig.store, id);
    expect(job).toMatchObject({ state: 'succeeded', returnedN: 1 });
    expect(job!.stateReason).toMatch(/image 2 is not an image/);
    const images = rig.store.images.listForJob(job!.id);
    expect(images.map((image) => [image.idx, image.downloadState])).toEqual([[1, 'done']]);
    expect(rig.store.jobs.partialSuccesses(id)).toMatchObject({ jobs: 1, missingImages: 1 });
  });

  it('a link whose body is HTML: the image fails as not-an-image, once, with what it was', async () => {
    rig = await hostileRig((req, res, { url }) => {
      if (isGenerate(req.method, req.url)) return linkAnswer(res, [`${url}/files/page.png`]);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><html><body>Please log in</body></html>');
    });
    const batch = rig.batch(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    const [image] = imagesOf(rig, batch);
    expect(image).toMatchObject({ downloadState: 'failed', failureCode: 'not-an-image' });
    expect(image!.downloadTries).toBe(1);
    expect(image!.failureReason).toMatch(/not a PNG, JPEG or WebP image/);
    expect(image!.failureReason).toContain('<!doctype html>');
    expect(image!.failureReason).not.toMatch(/tried again|retry the download/i);
    expect(tempFiles(rig.libraryDir)).toEqual([]);
  });

  it('an image whose link gave no image is generated again only when asked, as a new job for it alone, numbered after the kept one', async () => {
    // the first answer: image 1 is HTML, image 2 a picture; the follow-up: a picture
    const sim = htmlThenPictures(await makeImage('png', 16, 16));
    rig = await hostileRig(sim.handler);
    const batch = rig.store.batches.create({ name: 'two' }, [baseJob(1, { n: 2 })], 1).id;
    expect(await rig.engine.whenIdle()).toBe('done');
    const [origin] = jobsOf(rig.store, batch);
    expect(imagesOf(rig, batch).map((i) => [i.idx, i.downloadState, i.failureCode])).toEqual([
      [1, 'failed', 'not-an-image'],
      [2, 'done', null],
    ]);
    // nothing generated again by itself
    expect(rig.engine.regenerateNotImages({ batchId: batch + 1 })).toEqual({
      prompts: 0,
      images: 0,
    });
    expect(sim.generations()).toBe(1);

    expect(rig.engine.regenerateNotImages({ batchId: batch })).toEqual({ prompts: 1, images: 1 });
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(sim.generations()).toBe(2);
    const jobs = jobsOf(rig.store, batch);
    expect(jobs).toHaveLength(2);
    expect(jobs[1]).toMatchObject({ retryOf: origin!.id, n: 1, state: 'succeeded' });
    // the unusable row is gone; the new image takes number 3, after every number used
    expect(imagesOf(rig, batch).map((i) => [i.idx, i.downloadState])).toEqual([
      [2, 'done'],
      [3, 'done'],
    ]);
    expect(rig.store.jobs.partialSuccesses(batch)).toMatchObject({ jobs: 0, missingImages: 0 });
    expect(rig.store.images.counts(batch)).toMatchObject({ failed: 0, done: 2 });
    // asked once: a second call finds nothing left to ask for
    expect(rig.engine.regenerateNotImages({ batchId: batch })).toEqual({ prompts: 0, images: 0 });
  });
});
