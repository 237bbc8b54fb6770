import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeGatewayContext,
  createGatewayContext,
  type GatewayContext,
} from '../../../main/core/gateway/context.ts';
import { downloadImage } from '../../../main/core/gateway/endpoints/download.ts';
import { generateImage } from '../../../main/core/gateway/endpoints/images.ts';
import { GatewayError } from '../../../main/core/gateway/http/errors.ts';
import type { SendOptions, SendRequest } from '../../../main/core/gateway/http/transport.ts';

// The transport phases, with the transport replaced: what a failure means depends on when it happened.
const contexts: GatewayContext[] = [];
afterEach(async () => {
  for (const context of contexts.splice(0)) await closeGatewayContext(context);
});

function contextWith(request: SendRequest): GatewayContext {
  const context = createGatewayContext({
    profile: { baseUrl: 'http://127.0.0.1:9', timeouts: { responseMs: 100, totalMs: 1000 } },
    apiKey: 'sk-unit-0000',
    request,
  });
  contexts.push(context);
  return context;
}

const failed = (code: string) => Object.assign(new Error(code), { code });
const answer = (body: Readable, headers: Record<string, string | string[]> = {}) =>
  Promise.resolve({ statusCode: 200, headers, body });
const request = { model: 'flux-schnell', prompt: 'p', size: '32x32' };
const IMAGE_JSON = JSON.stringify({ data: [{ url: 'http://x/1.png' }] });

describe('openExchange phases', () => {
  it.each([
    ['UND_ERR_CONNECT_TIMEOUT', 'retry-backoff', false],
    ['ECONNREFUSED', 'retry-backoff', false],
    ['ENOTFOUND', 'retry-backoff', false],
    ['UND_ERR_SOCKET', 'retry-backoff', true],
    ['ECONNRESET', 'retry-backoff', true],
  ])('the request failing with %s → %s, sent: %s', async (code, decision, sent) => {
    const context = contextWith(() => Promise.reject(failed(code)));
    expect(await generateImage(context, request)).toMatchObject({ ok: false, decision, sent });
  });

  it('finds the code inside a wrapped error and an AggregateError', async () => {
    const wrapped = Object.assign(new TypeError('fetch failed'), { cause: failed('ENOTFOUND') });
    const every = Object.assign(new AggregateError([failed('ECONNREFUSED')]), {});
    for (const [error, code] of [
      [wrapped, 'ENOTFOUND'],
      [every, 'ECONNREFUSED'],
    ] as const) {
      const context = contextWith(() => Promise.reject(error));
      expect(await generateImage(context, request)).toMatchObject({ code, sent: false });
    }
  });

  it('no headers within responseMs → never-replay (the request was sent)', async () => {
    const context = contextWith(
      (_, options) =>
        new Promise((_, reject) =>
          options.signal.addEventListener('abort', () => reject(options.signal.reason)),
        ),
    );
    expect(await generateImage(context, request)).toMatchObject({
      ok: false,
      decision: 'never-replay',
      code: 'response_timeout',
    });
  });

  it('canceled before sending → sent: false, and nothing is handed to the transport', async () => {
    let calls = 0;
    const context = contextWith(() => {
      calls++;
      return answer(Readable.from([Buffer.from(IMAGE_JSON)]));
    });
    const outcome = await generateImage(context, request, { signal: AbortSignal.abort() });
    expect(outcome).toMatchObject({ ok: false, kind: 'canceled', sent: false });
    expect(calls).toBe(0);
  });

  it('sends the key as a bearer header with the profile extra headers, and JSON', async () => {
    let seen: SendOptions | null = null;
    const context = createGatewayContext({
      profile: {
        baseUrl: 'http://127.0.0.1:9/v1',
        extraHeaders: { 'X-Route': 'blue', 'User-Agent': 'router/1' },
      },
      apiKey: async () => ' sk-unit-1111 ',
      request: (url, options) => {
        seen = options;
        expect(String(url)).toBe('http://127.0.0.1:9/v1/images/generations');
        return answer(Readable.from([Buffer.from(IMAGE_JSON)]), {
          'content-type': 'application/json',
        });
      },
    });
    contexts.push(context);
    expect((await generateImage(context, request)).ok).toBe(true);
    const options = seen as unknown as SendOptions;
    expect(options.headers).toMatchObject({
      authorization: 'Bearer sk-unit-1111',
      'x-route': 'blue',
      'content-type': 'application/json',
      // The profile's header replaces the default one instead of being sent next to it.
      'user-agent': 'router/1',
    });
    expect(Object.keys(options.headers).filter((name) => /user-agent/i.test(name))).toHaveLength(1);
    expect(JSON.parse(String(options.body))).toMatchObject({ model: 'flux-schnell' });
  });
});

describe('answer bodies', () => {
  it('a body shorter than its content-length → a dropped connection, retried', async () => {
    const context = contextWith(() =>
      answer(Readable.from([Buffer.from('{"data":')]), {
        'content-length': '500',
        'x-svc-request-id': 'req_short',
      }),
    );
    expect(await generateImage(context, request)).toMatchObject({
      ok: false,
      decision: 'retry-backoff',
      kind: 'network',
      code: 'truncated',
      requestIds: { requestId: 'req_short' },
    });
  });

  it('a body that fails while arriving → a body-phase network failure with its code', async () => {
    const body = new Readable({ read() {} });
    body.push(Buffer.from('{"data":'));
    setTimeout(() => body.destroy(failed('ECONNRESET')), 10);
    const context = contextWith(() => answer(body));
    expect(await generateImage(context, request)).toMatchObject({
      ok: false,
      decision: 'retry-backoff',
      kind: 'network',
      code: 'ECONNRESET',
      sent: true,
    });
  });

  it('a download stream shorter than its content-length errors with a GatewayError', async () => {
    const context = contextWith(() =>
      answer(Readable.from([Buffer.from([1, 2, 3])]), { 'content-length': '10' }),
    );
    const outcome = await downloadImage(context, 'http://files.example/a.png');
    if (!outcome.ok) throw new Error(outcome.message);
    const error = await new Response(outcome.value.body).arrayBuffer().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).failure).toMatchObject({ kind: 'network', code: 'truncated' });
  });

  it('a download read to its end, then the body is released; a canceled one is destroyed', async () => {
    const whole = Readable.from([Buffer.from([1, 2]), Buffer.from([3])]);
    const context = contextWith(() => answer(whole, { 'content-length': '3' }));
    const outcome = await downloadImage(context, 'http://files.example/a.png');
    if (!outcome.ok) throw new Error(outcome.message);
    expect([...new Uint8Array(await new Response(outcome.value.body).arrayBuffer())]).toEqual([
      1, 2, 3,
    ]);

    const endless = new Readable({ read() {} });
    endless.push(Buffer.from([1]));
    const second = await downloadImage(
      contextWith(() => answer(endless)),
      'http://files.example/b.png',
    );
    if (!second.ok) throw new Error(second.message);
    await second.value.body.cancel();
    expect(endless.destroyed).toBe(true);
  });
});

describe('redirects (request() does not follow them; fetch did)', () => {
  const redirect = (status: number, location: string) =>
    answer(Readable.from([Buffer.from('moved')]), { location }).then((sent) => ({
      ...sent,
      statusCode: status,
    }));

  it.each([
    [303, 'GET', false],
    [302, 'GET', false],
    [307, 'POST', true],
    [308, 'POST', true],
  ])('%s after a POST → %s, body kept: %s', async (status, method, bodyKept) => {
    const hops: Array<{ url: string; options: SendOptions }> = [];
    const context = contextWith((url, options) => {
      hops.push({ url: String(url), options });
      return hops.length === 1
        ? redirect(status, '/v1/elsewhere')
        : answer(Readable.from([Buffer.from(IMAGE_JSON)]));
    });
    expect((await generateImage(context, request)).ok).toBe(true);
    expect(hops.map((hop) => hop.url)).toEqual([
      'http://127.0.0.1:9/v1/images/generations',
      'http://127.0.0.1:9/v1/elsewhere',
    ]);
    const second = hops[1]!.options;
    expect(second.method).toBe(method);
    expect(second.body !== undefined).toBe(bodyKept);
    expect('content-type' in second.headers).toBe(bodyKept);
    // Still the gateway's origin: the key goes along.
    expect(second.headers.authorization).toBe('Bearer sk-unit-0000');
  });

  it('stops after 20 hops and reports the last redirect', async () => {
    let calls = 0;
    const context = contextWith(() => {
      calls++;
      return redirect(301, `/loop/${calls}`);
    });
    expect(await generateImage(context, request)).toMatchObject({ ok: false, status: 301 });
    expect(calls).toBe(21);
  });
});
