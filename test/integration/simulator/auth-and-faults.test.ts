import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import type { WireResponse } from './wire-response.ts';

let gateway: RunningGateway;
afterEach(() => gateway?.close());

const generation = { model: 'flux-schnell', prompt: 'a lighthouse at dusk', size: '64x64' };

function post(
  path: string,
  body: unknown,
  key: string | null = gateway.key,
): Promise<WireResponse> {
  return fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body: JSON.stringify(body),
  });
}

describe('authentication (interface 5)', () => {
  it.each([
    ['no Authorization header', null, 'missing_api_key'],
    ['an unknown key', 'sk-unknown', 'invalid_api_key'],
  ])('answers 401 for %s, with the error object and a request id', async (_, key, code) => {
    gateway = await startGateway();
    const response = await post('/v1/images/generations', generation, key);
    expect(response.status).toBe(401);
    expect(response.headers.get('x-svc-request-id')).toMatch(/^req_/);
    const body = await response.json();
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code });
    expect(typeof body.error.message).toBe('string');
    await gateway.idle();
    expect(gateway.ledger.entries()).toHaveLength(0);
  });

  it('refuses an expired key with 401', async () => {
    gateway = await startGateway({ keys: [{ key: 'sk-old', expiresAt: Date.now() - 1 }] });
    const response = await post('/v1/images/generations', generation);
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe('api_key_expired');
  });

  it('answers 403 for a model outside the key whitelist and lists only allowed models', async () => {
    gateway = await startGateway({ keys: [{ key: 'sk-narrow', models: ['gpt-4o-mini'] }] });
    const response = await post('/v1/images/generations', generation);
    expect(response.status).toBe(403);
    expect((await response.json()).error.code).toBe('model_not_allowed');
    const models: WireResponse = await fetch(`${gateway.url}/v1/models`, {
      headers: { authorization: 'Bearer sk-narrow' },
    });
    expect((await models.json()).data.map((m: { id: string }) => m.id)).toEqual(['gpt-4o-mini']);
  });
});

describe('routing', () => {
  it('answers unknown paths with 404 and wrong methods with 405, always with a request id', async () => {
    gateway = await startGateway();
    const missing = await post('/v1/nothing-here', {});
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-svc-request-id')).toBeTruthy();
    expect((await missing.json()).error.code).toBe('not_found');
    const wrong = await fetch(`${gateway.url}/v1/images/generations`, {
      headers: { authorization: `Bearer ${gateway.key}` },
    });
    expect(wrong.status).toBe(405);
  });

  it('uses the configured request-id header name', async () => {
    gateway = await startGateway({ requestIdHeader: 'X-Other-Request-Id' });
    const response = await fetch(`${gateway.url}/v1/models`, {
      headers: { authorization: `Bearer ${gateway.key}` },
    });
    expect(response.headers.get('x-other-request-id')).toMatch(/^req_/);
    expect(response.headers.get('x-svc-request-id')).toBeNull();
  });
});

describe('faults answered before any work (interface 7)', () => {
  it('429 carries Retry-After in seconds and retry-after-ms, and charges nothing', async () => {
    gateway = await startGateway({ faults: '429@1', retryAfterSeconds: 3 });
    const limited = await post('/v1/images/generations', generation);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(limited.headers.get('retry-after-ms')).toBe('3000');
    expect((await limited.json()).error).toMatchObject({
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
    });
    const next = await post('/v1/images/generations', generation);
    expect(next.status).toBe(200);
    await gateway.idle();
    expect(gateway.ledger.entries()).toHaveLength(1);
  });

  it.each([500, 502, 503])(
    '%i is answered with an error object and charges nothing',
    async (status) => {
      gateway = await startGateway({ faults: `${status}:1` });
      const response = await post('/v1/images/generations', generation);
      expect(response.status).toBe(status);
      expect((await response.json()).error.type).toBe('server_error');
      await gateway.idle();
      expect(gateway.ledger.totalCharged()).toBe(0);
    },
  );

  it('same seed and spec give the same fault sequence', async () => {
    const statuses = async () => {
      gateway = await startGateway({ faults: '503:0.5', seed: 42 });
      const seen: number[] = [];
      for (let i = 0; i < 20; i++)
        seen.push((await post('/v1/images/generations', generation)).status);
      await gateway.close();
      return seen;
    };
    const first = await statuses();
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await statuses()).toEqual(first);
  });
});
