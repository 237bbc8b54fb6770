import { afterEach, describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayClient } from '../../../main/core/gateway/client.ts';
import type { GatewayContextOptions } from '../../../main/core/gateway/context.ts';
import { jobsOf } from '../../support/engine-harness.ts';
import {
  hostileRig,
  startHostileGateway,
  type HostileGateway,
  type HostileHandler,
  type HostileRig,
} from '../../support/hostile-gateway.ts';
import { failure } from './harness.ts';

// Answers a gateway should never send: bodies too big to hold, redirects off the web.

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

async function clientFor(
  handler: HostileHandler,
  options: Partial<GatewayContextOptions> = {},
): Promise<{ client: GatewayClient; gateway: HostileGateway }> {
  const gateway = await startHostileGateway(handler);
  const client = createGatewayClient({
    apiKey: 'sk-hostile-0000',
    ...options,
    profile: { baseUrl: gateway.url },
  });
  open.push(async () => {
    await gateway.close();
    await client.close();
  });
  return { client, gateway };
}

const request = { model: 'flux-schnell', prompt: 'p', size: '16x16' };
const MB = 1024 * 1024;

/** `{"data":[{"b64_json":"AAAA…"}]}` of about `bytes`, sent chunked (no Content-Length). */
const bigAnswer: (bytes: number, headers?: Record<string, string>) => HostileHandler =
  (bytes, headers = {}) =>
  (_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      'x-svc-request-id': 'req_big',
      ...headers,
    });
    res.write('{"data":[{"b64_json":"');
    const chunk = Buffer.alloc(64 * 1024, 'A');
    let sent = 0;
    const more = () => {
      while (sent < bytes && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end('"}]}');
    };
    more();
  };

describe('an answer larger than maxAnswerBytes', () => {
  it('is a failed attempt with a clear reason, its request id kept, not retried blindly', async () => {
    const { client } = await clientFor(bigAnswer(4 * MB), { maxAnswerBytes: MB });
    const outcome = failure(await client.generateImage(request));
    expect(outcome).toMatchObject({
      decision: 'never-replay',
      kind: 'uncertain',
      code: 'answer_too_large',
      status: 200,
      sent: true,
      requestIds: { requestId: 'req_big' },
    });
    expect(outcome.message).toMatch(/larger than the 1 MB limit/);
    expect(outcome.message).toMatch(/--max-answer-mb/);
    expect(outcome.message).toContain('req_big');
  });

  it('announced by Content-Length: refused at once, the body never read', async () => {
    const { client } = await clientFor(
      (_req, res) => {
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(600 * MB),
          'x-svc-request-id': 'req_huge',
        });
        res.write('{"data":[{"b64_json":"'); // and the rest never comes
      },
      { maxAnswerBytes: MB },
    );
    const started = Date.now();
    const outcome = failure(await client.generateImage(request));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(outcome).toMatchObject({
      code: 'answer_too_large',
      requestIds: { requestId: 'req_huge' },
    });
    expect(outcome.message).toMatch(/600 MB/);
  });

  it('an error status with a huge body is still classified by its status', async () => {
    const { client } = await clientFor(
      (_req, res) => {
        res.writeHead(503, { 'content-type': 'text/html', 'x-svc-request-id': 'req_503' });
        res.end(Buffer.alloc(2 * MB, 'x'));
      },
      { maxAnswerBytes: MB },
    );
    expect(failure(await client.generateImage(request))).toMatchObject({
      decision: 'retry-backoff',
      kind: 'server',
      status: 503,
      requestIds: { requestId: 'req_503' },
    });
  });

  it('in the engine: the job fails as uncertain with the request id, and the request is counted', async () => {
    const rig: HostileRig = await hostileRig(bigAnswer(4 * MB), { client: { maxAnswerBytes: MB } });
    open.push(() => rig.close());
    const batch = rig.batch(1);
    expect(await rig.engine.whenIdle()).toBe('done');
    const [job] = jobsOf(rig.store, batch);
    expect(job).toMatchObject({
      state: 'failed',
      failureKind: 'uncertain',
      errorCode: 'answer_too_large',
      lastRequestId: 'req_big',
    });
    expect(rig.store.attempts.listForJob(job!.id)).toMatchObject([
      { requestId: 'req_big', outcome: 'uncertain' },
    ]);
    expect(rig.engine.progress().requestsSent).toBe(1);
    expect(rig.gateway.requests).toHaveLength(1);
  });
});

describe('a redirect off the web', () => {
  it('on an API call: refused, naming the scheme, not a dropped connection', async () => {
    const { client } = await clientFor((_req, res) => {
      res.writeHead(302, { location: 'file:///etc/passwd', 'x-svc-request-id': 'req_302' });
      res.end();
    });
    const outcome = failure(await client.generateImage(request));
    expect(outcome.message).toMatch(/redirected to a file: address/);
    expect(outcome.message).not.toMatch(/connection dropped/);
    expect(outcome).toMatchObject({ decision: 'fail', code: 'redirect_refused' });
  });

  it('on a download: refused, naming the scheme, and final', async () => {
    const { client, gateway } = await clientFor((_req, res) => {
      res.writeHead(301, { location: 'ftp://files.example/x.png' });
      res.end();
    });
    const outcome = failure(await client.downloadImage(`${gateway.url}/files/x.png`));
    expect(outcome.message).toMatch(/redirected to a ftp: address/);
    expect(outcome).toMatchObject({ decision: 'fail', code: 'redirect_refused' });
  });
});
