import { createServer } from 'node:http';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../../../main/core/gateway/client.ts';
import { GatewayError } from '../../../main/core/gateway/http/errors.ts';
import {
  SIMULATED_FAIL_REASON,
  SIMULATED_QUOTA_REASON,
} from '../../../main/simulator/video/tasks.ts';
import { createCatalogue } from '../../../shared/gateway/catalogue.ts';
import { bytesOf, closeLater, failure, rig, success } from './harness.ts';
import { pollUntil } from '../../support/poll-until.ts';

const messages = [{ role: 'user', content: 'Describe a lighthouse at dusk in one line.' }];

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const pieces: string[] = [];
  for await (const piece of stream) pieces.push(piece);
  return pieces;
}

describe('text endpoints', () => {
  it('chat answers at once, and the streamed pieces join to the same text', async () => {
    const { client } = await rig();
    const whole = success(await client.chat({ model: 'gpt-4o-mini', messages }));
    expect(whole.content.length).toBeGreaterThan(0);
    expect(whole.usage?.totalTokens).toBeGreaterThan(0);
    const pieces = await collect(client.chatStream({ model: 'gpt-4o-mini', messages }));
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.every((piece) => piece !== '')).toBe(true);
    expect(pieces.join('')).toBe(whole.content);
  });

  it('a stream cut mid-way throws a retryable GatewayError', async () => {
    const { client } = await rig({ faults: 'reset@1' });
    const error = await collect(client.chatStream({ model: 'gpt-4o-mini', messages })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).failure).toMatchObject({
      decision: 'retry-backoff',
      kind: 'network',
    });
  });

  it('a stream refused up front throws the classified failure', async () => {
    const { client } = await rig({ faults: '429@1' });
    const error = await collect(client.chatStream({ model: 'gpt-4o-mini', messages })).catch(
      (e: unknown) => e,
    );
    expect((error as GatewayError).failure).toMatchObject({ decision: 'retry-after', status: 429 });
  });

  it('stopping a stream early frees the connection for the next call', async () => {
    const { client } = await rig();
    for await (const piece of client.chatStream({ model: 'gpt-4o-mini', messages })) {
      expect(piece).toBeTruthy();
      break;
    }
    success(await client.chat({ model: 'gpt-4o-mini', messages }));
  });

  it('responses: sync and streamed give the same text', async () => {
    const { client } = await rig();
    const whole = success(await client.responses({ model: 'gpt-4o-mini', input: 'Say hello.' }));
    expect(whole.text.length).toBeGreaterThan(0);
    const pieces = await collect(
      client.responsesStream({ model: 'gpt-4o-mini', input: 'Say hello.' }),
    );
    expect(pieces.join('')).toBe(whole.text);
  });

  it('refuses an image model for chat without sending', async () => {
    const { client, sent } = await rig();
    expect(failure(await client.chat({ model: 'gpt-image-1', messages }))).toMatchObject({
      kind: 'invalid-request',
      sent: false,
    });
    expect(sent).toHaveLength(0);
  });
});

describe('video endpoints', () => {
  async function finished(
    client: Awaited<ReturnType<typeof rig>>['client'],
    id: string,
    api?: 'videos' | 'video-generations',
  ) {
    let outcome = await client.getVideo({ id, ...(api ? { api } : {}) });
    await pollUntil(
      async () => {
        outcome = await client.getVideo({ id, ...(api ? { api } : {}) });
        return !outcome.ok || outcome.value.state === 'SUCCESS';
      },
      `video ${id} is finished`,
      { timeoutMs: 5000, intervalMs: 30 },
    );
    return outcome;
  }

  it('submits, polls to SUCCESS and streams the content', async () => {
    const { client } = await rig({ videoDurationMs: 200 });
    const task = success(
      await client.submitVideo({
        model: 'sora-2',
        prompt: 'waves',
        seconds: '4',
        size: '720x1280',
      }),
    );
    expect(task).toMatchObject({ api: 'videos' });
    expect(['QUEUED', 'IN_PROGRESS']).toContain(task.state);
    const done = success(await finished(client, task.id));
    expect(done.progress).toBe(100);
    const content = success(await client.downloadVideoContent(task.id));
    expect(content.contentType).toBe('video/mp4');
    const bytes = await bytesOf(content.body);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('a failed task comes back as task-failed with the platform code and fail reason', async () => {
    const { client, sent } = await rig({ videoDurationMs: 100, faults: 'task-fail@1' });
    const task = success(await client.submitVideo({ model: 'sora-2', prompt: 'waves' }));
    const outcome = failure(await finished(client, task.id));
    expect(outcome).toMatchObject({
      decision: 'fail',
      kind: 'task-failed',
      code: 'video_generation_failed',
    });
    expect(outcome.message).toBe(
      `The task failed (video_generation_failed: ${SIMULATED_FAIL_REASON}). (request id ${outcome.requestIds.requestId})`,
    );
    expect(outcome.requestIds.requestId).toMatch(/^req_[0-9a-f]+$/);
    expect(sent.at(-1)).toMatch(new RegExp(`/v1/videos/${task.id}$`));
  });

  it('uses /v1/video/generations where the catalogue says so', async () => {
    const gatewayRig = await rig({ videoDurationMs: 100 });
    const client = createGatewayClient({
      profile: { baseUrl: gatewayRig.gateway.url },
      apiKey: gatewayRig.gateway.key,
      catalogue: createCatalogue([
        { kind: 'video', id: 'sora-2', submitPath: 'video-generations' },
      ]),
    });
    closeLater(() => client.close());
    const task = success(await client.submitVideo({ model: 'sora-2', prompt: 'waves' }));
    expect(task.api).toBe('video-generations');
    expect(success(await finished(client as never, task.id, 'video-generations')).state).toBe(
      'SUCCESS',
    );
  });

  describe('task-style errors on /v1/video/generations: {code, message, data}', () => {
    /** A client whose catalogue sends kling-v2 to the task API, recording what it sends. */
    async function taskApi(options: Parameters<typeof rig>[0]) {
      const gatewayRig = await rig(options);
      const sent: string[] = [];
      const client = createGatewayClient({
        profile: { baseUrl: gatewayRig.gateway.url },
        apiKey: gatewayRig.gateway.key,
        catalogue: createCatalogue([
          { kind: 'video', id: 'kling-v2', submitPath: 'video-generations' },
        ]),
        request: (url, requestOptions) => {
          sent.push(String(url));
          return request(url, requestOptions);
        },
      });
      closeLater(() => client.close());
      return { gateway: gatewayRig.gateway, client, sent };
    }
    const KLING = { model: 'kling-v2', prompt: 'a square window', seconds: '5' };

    it('a task that ends in FAILURE, polled there, fails as task-failed with the code and fail reason of the envelope', async () => {
      const { client, sent } = await taskApi({ videoDurationMs: 100, faults: 'task-fail@1' });
      const task = success(await client.submitVideo(KLING));
      expect(task).toMatchObject({ api: 'video-generations', state: 'IN_PROGRESS' });
      const outcome = failure(await finished(client as never, task.id, 'video-generations'));
      expect(sent.at(-1)).toMatch(new RegExp(`/v1/video/generations/${task.id}$`));
      expect(outcome).toMatchObject({
        decision: 'fail',
        kind: 'task-failed',
        code: 'video_generation_failed',
      });
      expect(outcome.message).toContain(`(video_generation_failed: ${SIMULATED_FAIL_REASON})`);
    });

    it('a submission answered 200 with the task in FAILURE for lack of quota pauses the queue (balance)', async () => {
      const { client, gateway } = await taskApi({ faults: 'task-quota@1' });
      const outcome = failure(await client.submitVideo(KLING));
      expect(outcome).toMatchObject({
        decision: 'pause-queue',
        kind: 'balance',
        code: 'insufficient_user_quota',
      });
      expect(outcome.message).toContain(`(insufficient_user_quota: ${SIMULATED_QUOTA_REASON})`);
      expect(outcome.requestIds.requestId).toBe(gateway.ledger.entries()[0]?.requestId);
    });

    it('a submission refused 403 {code: insufficient_user_quota, data: null} pauses the queue (balance), with the message', async () => {
      const { client, gateway } = await taskApi({ balance: 100 });
      const outcome = failure(await client.submitVideo(KLING));
      expect(outcome).toMatchObject({
        decision: 'pause-queue',
        kind: 'balance',
        status: 403,
        code: 'insufficient_user_quota',
      });
      expect(outcome.message).toContain(
        '(403 insufficient_user_quota: Insufficient account balance: this call needs 25000 quota and 100 remains. Top up in the console.)',
      );
      expect(outcome.requestIds.requestId).toMatch(/^req_[0-9a-f]+$/);
      expect(gateway.ledger.entries()).toEqual([]);
    });
  });

  it('content of an unfinished video → fail with the reason', async () => {
    const { client } = await rig({ videoDurationMs: 5000 });
    const task = success(await client.submitVideo({ model: 'sora-2', prompt: 'waves' }));
    expect(failure(await client.downloadVideoContent(task.id))).toMatchObject({ status: 404 });
  });
});

describe('listModels', () => {
  it('lists the names the key may use', async () => {
    const { client } = await rig();
    expect(success(await client.listModels())).toEqual(
      expect.arrayContaining(['gpt-image-1', 'sora-2']),
    );
  });

  it('tolerates a gateway without GET /v1/models', async () => {
    const server = createServer((_, res) =>
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>no</h1>'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closeLater(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as { port: number };
    const client = createGatewayClient({
      profile: { baseUrl: `http://127.0.0.1:${port}` },
      apiKey: 'sk-x1234',
    });
    closeLater(() => client.close());
    expect(success(await client.listModels())).toBeNull();
  });
});
