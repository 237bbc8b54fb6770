import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import { SIMULATED_QUOTA_REASON } from '../../../main/simulator/video/tasks.ts';
import { readSps } from './h264-reader.ts';
import { nalUnitsOf, summariseMp4 } from './video-boxes.ts';
import type { WireResponse } from './wire-response.ts';
import { pollUntil } from '../../support/poll-until.ts';

let gateway: RunningGateway;
afterEach(() => gateway?.close());

const OTHER_KEY = 'sk-other-key';
const PRICE_PER_SECOND = 10_000; // sora-2 in the default model table

async function start(options: Parameters<typeof startGateway>[0] = {}) {
  gateway = await startGateway({
    videoDurationMs: 400,
    keys: [{ key: 'sk-owner-key' }, { key: OTHER_KEY }],
    ...options,
  });
}

function call(
  method: string,
  path: string,
  body?: unknown,
  key = gateway.key,
): Promise<WireResponse> {
  return fetch(`${gateway.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the first ledger entry reaches `state` (tasks are billed when they end). */
async function entryBecomes(state: 'settled' | 'refunded') {
  await pollUntil(() => gateway.ledger.entries()[0]?.state === state, `the task is ${state}`, {
    timeoutMs: 5000,
  });
  return gateway.ledger.entries()[0];
}

async function submit(body: Record<string, unknown> = {}) {
  const response = await call('POST', '/v1/videos', {
    model: 'sora-2',
    prompt: 'a paper boat drifting on a pond',
    seconds: '4',
    size: '1280x720',
    ...body,
  });
  expect(response.status).toBe(200);
  return response.json();
}

/** Polls GET /v1/videos/{id} until the task ends; returns every body seen. */
async function pollUntilDone(id: string) {
  const seen: Array<ReturnType<typeof JSON.parse>> = [];
  await pollUntil(
    async () => {
      const body = await (await call('GET', `/v1/videos/${id}`)).json();
      seen.push(body);
      return body.status === 'completed' || body.status === 'failed';
    },
    `video ${id} is finished`,
    { timeoutMs: 5000, intervalMs: 20 },
  );
  return seen;
}

async function download(id: string) {
  const response = await call('GET', `/v1/videos/${id}/content`);
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('POST /v1/videos and polling', () => {
  it('submits a task, pre-deducts seconds × price, and reports it in the OpenAI shape plus the platform state', async () => {
    await start();
    const video = await submit({ seconds: '8' });
    expect(video).toMatchObject({
      object: 'video',
      model: 'sora-2',
      status: 'queued',
      progress: 0,
      seconds: '8',
      size: '1280x720',
      prompt: 'a paper boat drifting on a pond',
      error: null,
      completed_at: null,
      task_id: video.id,
      task_status: 'IN_PROGRESS',
      fail_reason: null,
    });
    expect(typeof video.created_at).toBe('number');
    await gateway.idle();
    const [entry] = gateway.ledger.entries();
    expect(entry).toMatchObject({
      state: 'pending',
      endpoint: '/v1/videos',
      preDeducted: 8 * PRICE_PER_SECOND,
    });
  });

  it('advances progress with time to completed / SUCCESS, then settles the charge', async () => {
    await start();
    const video = await submit();
    const seen = await pollUntilDone(video.id);
    const progress = seen.map((s) => s.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(seen.some((s) => s.status === 'in_progress' && s.progress > 0 && s.progress < 100)).toBe(
      true,
    );
    expect(
      seen.filter((s) => s.status !== 'completed').every((s) => s.task_status === 'IN_PROGRESS'),
    ).toBe(true);
    const done = seen.at(-1);
    expect(done).toMatchObject({ status: 'completed', task_status: 'SUCCESS', progress: 100 });
    expect(done.completed_at).toBeGreaterThanOrEqual(done.created_at);
    expect(done.expires_at).toBeGreaterThan(done.completed_at);
    const [entry] = gateway.ledger.entries();
    expect(entry).toMatchObject({ state: 'settled', charged: 4 * PRICE_PER_SECOND, units: 4 });
  });

  it('accepts multipart/form-data with an input_reference file', async () => {
    await start();
    const form = new FormData();
    form.set('prompt', 'a kite over dunes');
    form.set('seconds', '12');
    form.set(
      'input_reference',
      new Blob([Buffer.from('not used')], { type: 'image/png' }),
      'ref.png',
    );
    const response = await fetch(`${gateway.url}/v1/videos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.key}` },
      body: form,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      seconds: '12',
      size: '720x1280',
      model: 'sora-2',
    });
  });
});

describe('GET /v1/videos/{id}/content', () => {
  it('answers 404 in the task error shape until the video is ready', async () => {
    await start({ videoDurationMs: 5000 });
    const video = await submit();
    const { response, bytes } = await download(video.id);
    expect(response.status).toBe(404);
    const body = JSON.parse(bytes.toString());
    expect(body).toMatchObject({
      code: 'video_not_ready',
      data: { task_id: video.id, status: 'IN_PROGRESS', fail_reason: null, url: null },
    });
    expect(body.message).toContain(`GET /v1/videos/${video.id}`);
    expect(body).not.toHaveProperty('error');
  });

  it('returns a real MP4: ISO BMFF boxes, one H.264 video track, seconds × 4 IDR pictures', async () => {
    await start();
    const video = await submit({ seconds: '8', size: '720x1280' });
    await pollUntilDone(video.id);
    const { response, bytes } = await download(video.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    // I_PCM: 84 macroblocks of 386 bytes a frame, 32 frames.
    expect(bytes.length).toBeLessThan(1_100_000);

    const mp4 = summariseMp4(bytes);
    expect(mp4).toMatchObject({ brand: 'isom', handler: 'vide', codec: 'avc1' });
    expect(mp4.avcC).toMatchObject({ profile: 66, compatibility: 0xc0, lengthSize: 4 });
    expect(mp4.durationTicks / mp4.timescale).toBe(8);
    // Portrait, as asked, scaled down; the SPS crops to the same size.
    expect(mp4.height).toBeGreaterThan(mp4.width);
    expect(mp4.width / mp4.height).toBeCloseTo(720 / 1280, 1);
    expect(readSps(mp4.avcC.sps[0]!)).toMatchObject({ width: mp4.width, height: mp4.height });
    expect(mp4.samples).toHaveLength(32);
    expect(mp4.syncSamples).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    for (const sample of mp4.samples) {
      const nals = nalUnitsOf(sample);
      expect(nals.map((nal) => nal[0]! & 0x1f)).toEqual([5]); // one IDR slice
    }
    // The picture moves: frames differ.
    expect(mp4.samples[0]!.equals(mp4.samples[16]!)).toBe(false);
    // The mdat ends exactly where the last sample ends: nothing missing, nothing extra.
    const last = mp4.samples.at(-1)!;
    expect(last.byteOffset - bytes.byteOffset + last.length).toBe(bytes.length);
  });

  it('is deterministic per prompt: same prompt, same bytes; another prompt, other bytes', async () => {
    await start();
    const [a, b, c] = [await submit(), await submit(), await submit({ prompt: 'a red tram' })];
    await pollUntilDone(c.id);
    const [bytesA, bytesB, bytesC] = [
      (await download(a.id)).bytes,
      (await download(b.id)).bytes,
      (await download(c.id)).bytes,
    ];
    expect(bytesA.equals(bytesB)).toBe(true);
    expect(bytesA.equals(bytesC)).toBe(false);
  });

  it('offers the thumbnail variant as a JPEG', async () => {
    await start();
    const video = await submit();
    await pollUntilDone(video.id);
    const response = await call('GET', `/v1/videos/${video.id}/content?variant=thumbnail`);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('applies download faults; a retried download succeeds and nothing is charged twice', async () => {
    await start({ faults: 'url-404@1,url-500@2,url-truncate@3' });
    const video = await submit();
    await pollUntilDone(video.id);
    const expired = await download(video.id);
    expect(expired.response.status).toBe(404);
    expect(JSON.parse(expired.bytes.toString())).toMatchObject({
      code: 'file_expired',
      data: null,
    });
    const failing = await download(video.id);
    expect(failing.response.status).toBe(500);
    const truncated = await call('GET', `/v1/videos/${video.id}/content`);
    const announced = Number(truncated.headers.get('content-length'));
    await expect(truncated.arrayBuffer()).rejects.toThrow();
    const whole = await download(video.id);
    expect(whole.response.status).toBe(200);
    expect(whole.bytes.length).toBe(announced);
    await gateway.idle();
    expect(gateway.ledger.entries()).toHaveLength(1);
    expect(gateway.ledger.totalCharged()).toBe(4 * PRICE_PER_SECOND);
  });
});

describe('video task failure, ownership and errors', () => {
  it('ends a task-fail task in FAILURE with a fail reason, and refunds it', async () => {
    await start({ faults: 'task-fail@1' });
    const video = await submit();
    const seen = await pollUntilDone(video.id);
    const failed = seen.at(-1);
    expect(failed).toMatchObject({ status: 'failed', task_status: 'FAILURE' });
    expect(failed.fail_reason).toMatch(/failed/);
    expect(failed.error).toEqual({ code: 'video_generation_failed', message: failed.fail_reason });
    expect(failed.progress).toBeLessThan(100);
    const [entry] = gateway.ledger.entries();
    expect(entry).toMatchObject({ state: 'refunded', charged: 0 });
    expect(gateway.ledger.balance).toBe(gateway.options.balance);

    const { response, bytes } = await download(video.id);
    expect(response.status).toBe(404);
    expect(JSON.parse(bytes.toString())).toMatchObject({
      code: 'video_failed',
      data: { task_id: video.id, status: 'FAILURE', fail_reason: failed.fail_reason },
    });
  });

  it('hides a task from another key (404), and answers unknown ids with top-level code, message, data', async () => {
    await start();
    const video = await submit();
    for (const path of [`/v1/videos/${video.id}`, `/v1/videos/${video.id}/content`]) {
      const response = await call('GET', path, undefined, OTHER_KEY);
      expect(response.status).toBe(404);
      const body = await response.json();
      expect(body).toMatchObject({ code: 'task_not_found', data: null });
      expect(body.message).toContain(video.id);
      expect(body).not.toHaveProperty('error');
    }
    const unknown = await call('GET', '/v1/video/generations/video_nope');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'task_not_found', data: null });
  });

  it.each([
    ['seconds not offered', { seconds: '5' }, 400, 'invalid_seconds'],
    ['a size with ×', { size: '1280×720' }, 400, 'invalid_size'],
    ['a size not offered', { size: '640x480' }, 400, 'invalid_size'],
    ['no prompt', { prompt: '' }, 400, 'missing_prompt'],
    ['a text model', { model: 'gpt-4o-mini' }, 404, 'model_not_found'],
  ])('refuses %s in the task error shape, charging nothing', async (_, patch, status, code) => {
    await start();
    const response = await call('POST', '/v1/videos', {
      model: 'sora-2',
      prompt: 'x',
      ...patch,
    });
    expect(response.status).toBe(status);
    const body = await response.json();
    expect(body).toMatchObject({ code, data: null });
    expect(typeof body.message).toBe('string');
    await gateway.idle();
    expect(gateway.ledger.entries()).toHaveLength(0);
  });

  it('answers 401 without a key, and 429 from the server, in the task error shape', async () => {
    await start({ faults: '429@1' });
    const limited = await call('POST', '/v1/videos', { prompt: 'x' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await limited.json()).toMatchObject({ code: 'rate_limit_exceeded', data: null });
    const anonymous = await fetch(`${gateway.url}/v1/videos/abc`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'missing_api_key', data: null });
  });

  it('on 504 at submission the task was accepted: it runs on and is charged when it succeeds', async () => {
    await start({ faults: '504@1' });
    const response = await call('POST', '/v1/videos', { prompt: 'x' });
    expect(response.status).toBe(504);
    expect((await response.json()).code).toBe('gateway_timeout');
    await gateway.idle();
    expect(gateway.ledger.entries()[0]?.state).toBe('pending');
    expect(await entryBecomes('settled')).toMatchObject({ charged: 4 * PRICE_PER_SECOND });
  });

  it('refunds a submission whose answer was cut by the reset fault', async () => {
    await start({ faults: 'reset@1' });
    const response = await call('POST', '/v1/videos', { prompt: 'x' });
    await expect(response.text()).rejects.toThrow();
    await gateway.idle();
    expect(gateway.ledger.entries()[0]).toMatchObject({ state: 'refunded', charged: 0 });
    // The discarded task is not billed again when its time is up.
    await sleep(500);
    expect(gateway.ledger.entries()[0]).toMatchObject({ state: 'refunded', charged: 0 });
    expect(gateway.ledger.balance).toBe(gateway.options.balance);
  });
});

describe('task-style API: POST/GET /v1/video/generations', () => {
  it('answers {code, message, data} with platform status and percent progress, then a download url', async () => {
    await start();
    const response = await call('POST', '/v1/video/generations', {
      model: 'sora-2',
      prompt: 'a lantern festival',
      duration: 4,
    });
    expect(response.status).toBe(200);
    const submitted = await response.json();
    expect(submitted).toMatchObject({
      code: 'success',
      message: '',
      data: { status: 'IN_PROGRESS', progress: '0%', fail_reason: null, url: null, seconds: 4 },
    });
    const id = submitted.data.task_id;
    const seen: string[] = [];
    let body = submitted;
    await pollUntil(
      async () => {
        body = await (await call('GET', `/v1/video/generations/${id}`)).json();
        seen.push(body.data.progress);
        return body.data.status !== 'IN_PROGRESS';
      },
      `task ${id} is finished`,
      { timeoutMs: 5000, intervalMs: 20 },
    );
    expect(seen.some((p: string) => /^[1-9][0-9]?%$/.test(p))).toBe(true);
    expect(body.data).toMatchObject({ task_id: id, status: 'SUCCESS', progress: '100%' });
    const file = await fetch(body.data.url, {
      headers: { authorization: `Bearer ${gateway.key}` },
    });
    expect(file.status).toBe(200);
    expect(summariseMp4(Buffer.from(await file.arrayBuffer())).samples).toHaveLength(16);
    expect(gateway.ledger.entries()[0]).toMatchObject({
      endpoint: '/v1/video/generations',
      state: 'settled',
      charged: 4 * PRICE_PER_SECOND,
    });
  });

  it('serves a task-API-only model there, and refuses it on /v1/videos with a pointer', async () => {
    await start();
    const refused = await call('POST', '/v1/videos', { model: 'kling-v2', prompt: 'x' });
    expect(refused.status).toBe(400);
    const error = await refused.json();
    expect(error).toMatchObject({ code: 'model_requires_task_api', data: null });
    expect(error.message).toContain('POST /v1/video/generations');
    await gateway.idle();
    expect(gateway.ledger.entries()).toHaveLength(0);

    const submitted = await (
      await call('POST', '/v1/video/generations', {
        model: 'kling-v2',
        prompt: 'a square window',
        duration: 5,
        size: '1024x1024',
      })
    ).json();
    expect(submitted.data).toMatchObject({ model: 'kling-v2', seconds: 5, size: '1024x1024' });
    expect(gateway.ledger.entries()[0]?.preDeducted).toBe(5 * 5000);
    await entryBecomes('settled');
    const mp4 = summariseMp4((await download(submitted.data.task_id)).bytes);
    expect(mp4.width).toBe(mp4.height);
    expect(mp4.samples).toHaveLength(20);
  });

  it('reports FAILURE with its fail_reason and refunds', async () => {
    await start({ faults: 'task-fail@1' });
    const submitted = await (
      await call('POST', '/v1/video/generations', { model: 'sora-2', prompt: 'x' })
    ).json();
    expect(await entryBecomes('refunded')).toMatchObject({ charged: 0 });
    const body = await (
      await call('GET', `/v1/video/generations/${submitted.data.task_id}`)
    ).json();
    expect(body.data).toMatchObject({ status: 'FAILURE', url: null });
    expect(body.data.fail_reason).toMatch(/refunded/);
    // a failed task is a task error (interface 7 rule 2): its code and reason at top level
    expect(body).toMatchObject({
      code: 'video_generation_failed',
      message: body.data.fail_reason,
    });
    expect(gateway.ledger.entries()[0]).toMatchObject({ state: 'refunded', charged: 0 });
  });

  it('task-quota: answers the submission 200 with the task already in FAILURE, code insufficient_user_quota at top level, refunded', async () => {
    await start({ faults: 'task-quota@1' });
    const response = await call('POST', '/v1/video/generations', {
      model: 'kling-v2',
      prompt: 'a square window',
      duration: 5,
    });
    expect(response.status).toBe(200);
    const submitted = await response.json();
    const id = submitted.data.task_id;
    expect(submitted).toEqual({
      code: 'insufficient_user_quota',
      message: SIMULATED_QUOTA_REASON,
      data: expect.objectContaining({
        task_id: id,
        status: 'FAILURE',
        progress: '0%',
        fail_reason: SIMULATED_QUOTA_REASON,
        url: null,
        model: 'kling-v2',
      }),
    });
    await gateway.idle();
    expect(gateway.ledger.entries()).toHaveLength(1);
    expect(gateway.ledger.entries()[0]).toMatchObject({
      endpoint: '/v1/video/generations',
      state: 'refunded',
      charged: 0,
    });
    expect(gateway.ledger.balance).toBe(gateway.options.balance);
    // polled later, the task says the same
    const polled = await (await call('GET', `/v1/video/generations/${id}`)).json();
    expect(polled).toMatchObject({
      code: 'insufficient_user_quota',
      message: SIMULATED_QUOTA_REASON,
      data: { task_id: id, status: 'FAILURE', fail_reason: SIMULATED_QUOTA_REASON },
    });
  });

  it('task-quota on POST /v1/videos: a failed video object with error.code insufficient_user_quota and the platform state', async () => {
    await start({ faults: 'task-quota@1' });
    const video = await submit();
    expect(video).toMatchObject({
      status: 'failed',
      progress: 0,
      error: { code: 'insufficient_user_quota', message: SIMULATED_QUOTA_REASON },
      task_id: video.id,
      task_status: 'FAILURE',
      fail_reason: SIMULATED_QUOTA_REASON,
    });
    await gateway.idle();
    expect(gateway.ledger.entries()[0]).toMatchObject({ state: 'refunded', charged: 0 });
    // only the first submission was hit: the next one runs
    expect(await submit()).toMatchObject({
      status: 'queued',
      error: null,
      task_status: 'IN_PROGRESS',
    });
  });
});
