import diagnostics from 'node:diagnostics_channel';
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../../../main/core/gateway/client.ts';
import { GatewayError } from '../../../main/core/gateway/http/errors.ts';
import { bytesOf, closeLater, failure, rig, success } from './harness.ts';

const request = { model: 'flux-schnell', prompt: 'a lighthouse at dusk', size: '32x32' };

describe('work faults → decisions', () => {
  it("429 → retry-after with the server's wait; nothing charged", async () => {
    const { client, gateway } = await rig({ faults: '429@1', retryAfterSeconds: 2 });
    const outcome = failure(await client.generateImage(request));
    expect(outcome).toMatchObject({
      decision: 'retry-after',
      kind: 'rate-limited',
      status: 429,
      retryAfterMs: 2000,
      code: 'rate_limit_exceeded',
    });
    expect(outcome.requestIds.requestId).toMatch(/^req_/);
    // The next attempt goes through.
    success(await client.generateImage(request));
    await gateway.idle();
    expect(gateway.ledger.entries()).toHaveLength(1);
  });

  it.each(['500', '502', '503'])('%s → retry-backoff, nothing charged', async (status) => {
    const { client, gateway } = await rig({ faults: `${status}@1` });
    const outcome = failure(await client.generateImage(request));
    expect(outcome).toMatchObject({
      decision: 'retry-backoff',
      kind: 'server',
      status: Number(status),
    });
    await gateway.idle();
    expect(gateway.ledger.totalCharged()).toBe(0);
  });

  it.each(['504', '524'])(
    '%s → never-replay with the request id (the work was done and charged)',
    async (status) => {
      const { client, gateway } = await rig({ faults: `${status}@1` });
      const outcome = failure(await client.generateImage(request));
      expect(outcome).toMatchObject({
        decision: 'never-replay',
        kind: 'uncertain',
        status: Number(status),
      });
      const id = outcome.requestIds.requestId ?? '';
      expect(id).toMatch(/^req_/);
      expect(outcome.message).toContain(id);
      await gateway.idle();
      // Why it must not be replayed blindly: the usage log shows the call as charged.
      expect(gateway.ledger.find(id)).toMatchObject({ state: 'settled' });
    },
  );

  it('connection reset mid-body → retry-backoff (dropped connections are not charged)', async () => {
    const { client, gateway } = await rig({ faults: 'reset@1' });
    const outcome = failure(await client.generateImage(request));
    expect(outcome).toMatchObject({ decision: 'retry-backoff', kind: 'network', sent: true });
    expect(outcome.requestIds.requestId).toMatch(/^req_/);
    await gateway.idle();
    expect(gateway.ledger.find(outcome.requestIds.requestId ?? '')).toMatchObject({
      state: 'refunded',
    });
  });

  it('slow body → still a success within the time-outs', async () => {
    const { client } = await rig({ faults: 'slow@1', slowBodyMs: 300 });
    expect(success(await client.generateImage(request)).images).toHaveLength(1);
  });

  it('slow body past the total time-out → never-replay (time-out after sending)', async () => {
    const { client } = await rig({ faults: 'slow@1', slowBodyMs: 2000 });
    const outcome = failure(await client.generateImage(request, { timeouts: { totalMs: 300 } }));
    expect(outcome).toMatchObject({
      decision: 'never-replay',
      kind: 'uncertain',
      code: 'body_timeout',
    });
    expect(outcome.requestIds.requestId).toMatch(/^req_/);
  });

  it('no answer within the response time-out → never-replay', async () => {
    const { client } = await rig({ latencyMs: 1500 });
    const outcome = failure(await client.generateImage(request, { timeouts: { responseMs: 200 } }));
    expect(outcome).toMatchObject({
      decision: 'never-replay',
      kind: 'uncertain',
      code: 'response_timeout',
    });
  });

  it('empty data → a failed generation, retried with backoff, not charged', async () => {
    const { client, gateway } = await rig({ faults: 'empty@1' });
    const outcome = failure(await client.generateImage(request));
    expect(outcome).toMatchObject({ decision: 'retry-backoff', kind: 'empty-result', status: 200 });
    expect(outcome.requestIds.requestId).toMatch(/^req_/);
    await gateway.idle();
    expect(gateway.ledger.totalCharged()).toBe(0);
  });

  it('a canceled call ends at once as canceled', async () => {
    const { client } = await rig({ latencyMs: 2000 });
    const controller = new AbortController();
    const pending = client.generateImage(request, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    expect(failure(await pending)).toMatchObject({ kind: 'canceled' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a refused connection → retry-backoff, marked as never sent', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const client = createGatewayClient({
      profile: { baseUrl: `http://127.0.0.1:${port}` },
      apiKey: 'sk-x',
    });
    closeLater(() => client.close());
    const outcome = failure(await client.generateImage(request));
    expect(outcome).toMatchObject({
      decision: 'retry-backoff',
      kind: 'network',
      code: 'ECONNREFUSED',
      sent: false,
    });
  });

  it('reuses kept-alive connections between requests', async () => {
    const { client } = await rig();
    const sockets = new Set<number>();
    const onConnect = (message: unknown) => {
      sockets.add((message as { socket: { localPort: number } }).socket.localPort);
    };
    diagnostics.subscribe('undici:client:connected', onConnect);
    try {
      for (let i = 0; i < 8; i++) success(await client.generateImage(request));
    } finally {
      diagnostics.unsubscribe('undici:client:connected', onConnect);
    }
    // One connection, or two when the first is replaced early: never one per request.
    expect(sockets.size).toBeGreaterThan(0);
    expect(sockets.size).toBeLessThanOrEqual(2);
  });
});

describe('download faults', () => {
  async function link(faults: string) {
    const setup = await rig({ faults });
    const [image] = success(await setup.client.generateImage(request)).images;
    return { ...setup, url: image?.url ?? '' };
  }

  it('url-404 → reported as an expired link', async () => {
    const { client, url } = await link('url-404@1');
    const outcome = failure(await client.downloadImage(url));
    expect(outcome).toMatchObject({ decision: 'fail', kind: 'expired-link', status: 404 });
    expect(outcome.message).toMatch(/expired/);
  });

  it('a link past its lifetime → expired', async () => {
    let now = Date.now();
    const { client } = await rig({ urlTtlMs: 50, now: () => now });
    const [image] = success(await client.generateImage(request)).images;
    now += 120; // past the link's lifetime
    expect(failure(await client.downloadImage(image?.url ?? ''))).toMatchObject({
      kind: 'expired-link',
    });
  });

  it('url-500 → retry the download (not the generation)', async () => {
    const { client, url } = await link('url-500@1');
    const outcome = failure(await client.downloadImage(url));
    expect(outcome).toMatchObject({ decision: 'retry-backoff', status: 500 });
    // The retried download works.
    expect((await bytesOf(success(await client.downloadImage(url)).body)).length).toBeGreaterThan(
      0,
    );
  });

  it('url-truncate → the stream fails with a retryable GatewayError', async () => {
    const { client, url } = await link('url-truncate@1');
    const download = success(await client.downloadImage(url));
    const error = await bytesOf(download.body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).failure).toMatchObject({
      decision: 'retry-backoff',
      kind: 'network',
    });
  });
});

describe('answers the simulator does not make', () => {
  async function serve(handler: RequestListener) {
    const server = createHttpServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closeLater(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const client = createGatewayClient({
      profile: { baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}` },
      apiKey: 'sk-test-000000',
    });
    closeLater(() => client.close());
    return client;
  }

  it('a connection dropped after sending, before any answer → retry-backoff, sent', async () => {
    const client = await serve((req) => req.socket.destroy());
    expect(failure(await client.generateImage(request))).toMatchObject({
      decision: 'retry-backoff',
      kind: 'network',
      sent: true,
    });
  });

  it('a 200 that is not JSON → never-replay (the work may be charged)', async () => {
    const client = await serve((_, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html', 'x-svc-request-id': 'req_html' })
        .end('<p>ok</p>'),
    );
    const outcome = failure(await client.generateImage(request));
    expect(outcome).toMatchObject({ decision: 'never-replay', kind: 'bad-response' });
    expect(outcome.requestIds.requestId).toBe('req_html');
  });

  it('a 200 carrying only an insufficient_user_quota error → pause-queue', async () => {
    const client = await serve((_, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'insufficient_user_quota', message: 'top up' } })),
    );
    expect(failure(await client.generateImage(request))).toMatchObject({
      decision: 'pause-queue',
      kind: 'balance',
    });
  });

  it('a 503 with an HTTP-date Retry-After → retry-after', async () => {
    const client = await serve((_, res) =>
      res.writeHead(503, { 'retry-after': new Date(Date.now() + 5000).toUTCString() }).end('busy'),
    );
    const outcome = failure(await client.generateImage(request));
    expect(outcome.decision).toBe('retry-after');
    expect(outcome.retryAfterMs).toBeGreaterThan(3000);
    expect(outcome.retryAfterMs).toBeLessThanOrEqual(5000);
  });

  it('a chat stream with keep-alives, empty deltas and lines split across writes', async () => {
    const client = await serve(async (_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const frames = [
        ': keep-alive\n\n',
        'data: {"choices":[{"delta":{"role":"assistant"}}]}\n\n',
        'data: {"choices":[{"delta":{"content":"Hel',
        'lo"}}]}\n\ndata: {"choices":[{"delta":{}}]}\n\n: ping\n',
        '\ndata: {"choices":[{"delta":{"content":""}}]}\r\n\r\ndata: {"choices":[{"delta":{"content":" world"}}]}\n\n',
        'data: [DONE]\n\n',
      ];
      for (const frame of frames) {
        res.write(frame);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      res.end();
    });
    const pieces: string[] = [];
    for await (const piece of client.chatStream({
      model: 'any',
      messages: [{ role: 'user', content: 'x' }],
    })) {
      pieces.push(piece);
    }
    expect(pieces).toEqual(['Hello', ' world']);
  });
});
