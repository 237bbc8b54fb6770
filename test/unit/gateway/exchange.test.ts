import { afterEach, describe, expect, it } from 'vitest';
import {
  closeGatewayContext,
  createGatewayContext,
  type GatewayContext,
} from '../../../main/core/gateway/context.ts';
import { generateImage } from '../../../main/core/gateway/endpoints/images.ts';

// The transport phases, with fetch replaced: what a failure means depends on when it happened.
const contexts: GatewayContext[] = [];
afterEach(async () => {
  for (const context of contexts.splice(0)) await closeGatewayContext(context);
});

function contextWith(fetch: typeof globalThis.fetch): GatewayContext {
  const context = createGatewayContext({
    profile: { baseUrl: 'http://127.0.0.1:9', timeouts: { responseMs: 100, totalMs: 1000 } },
    apiKey: 'sk-unit-0000',
    fetch,
  });
  contexts.push(context);
  return context;
}

const fetchFailed = (code: string) =>
  Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) });
const request = { model: 'flux-schnell', prompt: 'p', size: '32x32' };

describe('openExchange phases', () => {
  it.each([
    ['UND_ERR_CONNECT_TIMEOUT', 'retry-backoff', false],
    ['ECONNREFUSED', 'retry-backoff', false],
    ['ENOTFOUND', 'retry-backoff', false],
    ['UND_ERR_SOCKET', 'retry-backoff', true],
    ['ECONNRESET', 'retry-backoff', true],
  ])('fetch failing with %s → %s, sent: %s', async (code, decision, sent) => {
    const context = contextWith(() => Promise.reject(fetchFailed(code)));
    expect(await generateImage(context, request)).toMatchObject({ ok: false, decision, sent });
  });

  it('no headers within responseMs → never-replay (the request was sent)', async () => {
    const context = contextWith(
      (_, init) =>
        new Promise((_, reject) =>
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
        ),
    );
    expect(await generateImage(context, request)).toMatchObject({
      ok: false,
      decision: 'never-replay',
      code: 'response_timeout',
    });
  });

  it('sends the key as a bearer header with the profile extra headers, and JSON', async () => {
    let seen: Headers | null = null;
    const context = createGatewayContext({
      profile: { baseUrl: 'http://127.0.0.1:9/v1', extraHeaders: { 'X-Route': 'blue' } },
      apiKey: async () => ' sk-unit-1111 ',
      fetch: async (url, init) => {
        seen = new Headers(init?.headers);
        expect(String(url)).toBe('http://127.0.0.1:9/v1/images/generations');
        return Response.json({ data: [{ url: 'http://x/1.png' }] });
      },
    });
    contexts.push(context);
    expect((await generateImage(context, request)).ok).toBe(true);
    const headers = seen as unknown as Headers;
    expect(headers.get('authorization')).toBe('Bearer sk-unit-1111');
    expect(headers.get('x-route')).toBe('blue');
    expect(headers.get('content-type')).toBe('application/json');
  });
});
