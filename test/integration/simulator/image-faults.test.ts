import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import type { GatewayOptions } from '../../../main/simulator/options.ts';
import { download, errorJson, okJson, onlyEntry, postJson } from './image-helpers.ts';

let gateway: RunningGateway;
afterEach(() => gateway?.close());

const GENERATIONS = '/v1/images/generations';
const ADVANCED = '/v1/svc/images/advanced';
/** flux-schnell costs 300 quota per image. */
const request = (n: number, change: object = {}) => ({
  model: 'flux-schnell',
  prompt: 'a kite',
  size: '32x32',
  n,
  ...change,
});

async function nothingBilled() {
  await gateway.idle();
  expect(gateway.ledger.entries()).toHaveLength(0);
  expect(gateway.ledger.balance).toBe(gateway.options.balance);
}

describe('closed and unknown fields: refused before billing', () => {
  it.each(['image_urls', 'webhook'])(
    'advanced entry refuses %s with 400 and a hint',
    async (field) => {
      gateway = await startGateway();
      const value =
        field === 'image_urls' ? ['https://example.com/a.png'] : 'https://example.com/hook';
      const error = await errorJson(
        await postJson(gateway, ADVANCED, { ...request(2), [field]: value }),
        400,
      );
      expect(error).toMatchObject({ code: 'field_closed', param: field });
      expect(error.message).toMatch(/Remove/);
      await nothingBilled();
    },
  );

  it.each([
    [{ seed: 5 }, 400, 'seed'],
    [{ extra_fields: { steps: 2 }, model: 'dall-e-2', size: '256x256' }, 400, 'extra_fields'],
    [{ quality: 'hd' }, 400, 'quality'],
    [{ output_format: 'jpeg', model: 'dall-e-3', size: '1024x1024', n: 1 }, 400, 'output_format'],
    [{ n: '2' }, 422, 'n'],
    [{ size: ['32x32'] }, 422, 'size'],
    [{ size: '32×32' }, 400, 'size'],
    [{ n: 11 }, 400, 'n'],
    [{ prompt: '' }, 400, 'prompt'],
  ])('generations refuses %j with %i', async (change, status, param) => {
    gateway = await startGateway();
    const error = await errorJson(await postJson(gateway, GENERATIONS, request(2, change)), status);
    expect(error.param).toBe(param);
    if (param === 'size' && status === 400) expect(error.message).toContain('lowercase x');
    await nothingBilled();
  });

  it('refuses a body that is not JSON', async () => {
    gateway = await startGateway();
    const response = await fetch(`${gateway.url}${GENERATIONS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.key}`, 'content-type': 'application/json' },
      body: '{"model": ',
    });
    expect((await errorJson(response, 400)).code).toBe('invalid_json');
  });
});

describe('work faults and what they cost', () => {
  it('empty: 200 with data [] and nothing charged', async () => {
    gateway = await startGateway({ faults: 'empty@1' });
    const body = await okJson(await postJson(gateway, GENERATIONS, request(3)));
    expect(body.data).toEqual([]);
    expect(body.metadata).toBeUndefined();
    expect(await onlyEntry(gateway)).toMatchObject({
      preDeducted: 900,
      charged: 0,
      units: 0,
      state: 'refunded',
    });
    expect(gateway.ledger.balance).toBe(gateway.options.balance);
  });

  it.each([
    ['metadata', (b: Record<string, unknown>) => b.metadata],
    ['top-level', (b: Record<string, unknown>) => ({ ...b, ...(b.metadata as object) })],
    ['nested', (b: Record<string, unknown>) => (b.metadata as Record<string, unknown>).svc_partial],
  ] as const)(
    'partial (%s placement): fewer images, counts in the body, charged on those returned',
    async (placement, counts) => {
      gateway = await startGateway({
        faults: 'partial@1',
        partialPlacement: placement as GatewayOptions['partialPlacement'],
      });
      const body = await okJson(await postJson(gateway, GENERATIONS, request(4)));
      expect(body.data).toHaveLength(2);
      for (const item of body.data) await download(item.url!);
      expect((body.metadata as Record<string, unknown>).svc_partial).toBeTruthy();
      expect(counts(body)).toMatchObject({ requested_n: 4, returned_n: 2, failed_requests: 2 });
      expect(await onlyEntry(gateway)).toMatchObject({
        preDeducted: 1200,
        charged: 600,
        units: 2,
        state: 'settled',
      });
    },
  );

  it('partial with n = 1 returns the one image, charged', async () => {
    gateway = await startGateway({ faults: 'partial@1', partialKey: 'gw_partial' });
    const body = await okJson(await postJson(gateway, GENERATIONS, request(1)));
    expect(body.data).toHaveLength(1);
    expect(body.metadata).toBeUndefined();
    expect((await onlyEntry(gateway)).charged).toBe(300);
  });

  it.each([
    ['504', 'gateway_timeout'],
    ['524', 'origin_timeout'],
  ])('%s: the work was done and is charged, but the answer is an error', async (status, code) => {
    gateway = await startGateway({ faults: `${status}@1` });
    const response = await postJson(gateway, GENERATIONS, request(2));
    const error = await errorJson(response, Number(status));
    expect(error.code).toBe(code);
    expect(response.headers.get('x-svc-request-id')).toMatch(/^req_/);
    expect(await onlyEntry(gateway)).toMatchObject({
      requestId: response.headers.get('x-svc-request-id'),
      charged: 600,
      units: 2,
      state: 'settled',
    });
  });

  it('reset: the body is cut mid-way and nothing is charged', async () => {
    gateway = await startGateway({ faults: 'reset@1' });
    const response = await postJson(
      gateway,
      GENERATIONS,
      request(2, { response_format: 'b64_json' }),
    );
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
    expect(await onlyEntry(gateway)).toMatchObject({
      preDeducted: 600,
      charged: 0,
      state: 'refunded',
    });
    expect(gateway.ledger.balance).toBe(gateway.options.balance);
  });

  it('slow: the body trickles but arrives whole, and is charged', async () => {
    gateway = await startGateway({ faults: 'slow@1', slowBodyMs: 100 });
    const started = Date.now();
    const body = await okJson(await postJson(gateway, GENERATIONS, request(2)));
    expect(Date.now() - started).toBeGreaterThanOrEqual(80);
    expect(body.data).toHaveLength(2);
    expect((await onlyEntry(gateway)).charged).toBe(600);
  });

  it('a client that goes away before the answer is not charged', async () => {
    gateway = await startGateway({ latencyMs: 400 });
    const aborter = new AbortController();
    const pending = fetch(`${gateway.url}${GENERATIONS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(request(2)),
      signal: aborter.signal,
    });
    setTimeout(() => aborter.abort(), 50);
    await expect(pending).rejects.toThrow();
    expect(await onlyEntry(gateway)).toMatchObject({
      preDeducted: 600,
      charged: 0,
      state: 'refunded',
    });
  });

  it.each(['429', '500', '502', '503'])(
    '%s is answered before any work: nothing billed',
    async (fault) => {
      gateway = await startGateway({ faults: `${fault}@1` });
      const response = await postJson(gateway, GENERATIONS, request(2));
      expect(response.status).toBe(Number(fault));
      if (fault === '429') expect(response.headers.get('retry-after')).toBe('1');
      await response.arrayBuffer();
      await nothingBilled();
    },
  );
});

describe('balance, quota cap, authentication and permission', () => {
  it('insufficient_user_quota when the balance cannot cover n images', async () => {
    gateway = await startGateway({ balance: 1000 });
    const response = await postJson(gateway, GENERATIONS, request(4));
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(body.error.code).toBe('insufficient_user_quota');
    expect(gateway.ledger.balance).toBe(1000);
    // Three images fit.
    await okJson(await postJson(gateway, GENERATIONS, request(3)));
    await gateway.idle();
    expect(gateway.ledger.balance).toBe(100);
  });

  it("pre_consume_token_quota_failed when the key's cap would be exceeded", async () => {
    gateway = await startGateway({ keys: [{ key: 'sk-capped', quotaCap: 500 }] });
    await okJson(await postJson(gateway, GENERATIONS, request(1)));
    const response = await postJson(gateway, GENERATIONS, request(1));
    const body = (await response.json()) as { error: { code: string } };
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(body.error.code).toBe('pre_consume_token_quota_failed');
    await gateway.idle();
    expect(gateway.ledger.totalCharged()).toBe(300);
  });

  it('401 without a valid key, 403 for a model outside the whitelist', async () => {
    gateway = await startGateway({ keys: [{ key: 'sk-only-dalle', models: ['dall-e-2'] }] });
    const noKey = await fetch(`${gateway.url}${GENERATIONS}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request(1)),
    });
    expect((await errorJson(noKey, 401)).code).toBe('missing_api_key');
    const badKey = await postJson(gateway, GENERATIONS, request(1), {
      authorization: 'Bearer sk-nope',
    });
    expect((await errorJson(badKey, 401)).code).toBe('invalid_api_key');
    const forbidden = await postJson(gateway, ADVANCED, request(1));
    expect((await errorJson(forbidden, 403)).code).toBe('model_not_allowed');
    await okJson(
      await postJson(gateway, GENERATIONS, { model: 'dall-e-2', prompt: 'ok', size: '256x256' }),
    );
    await gateway.idle();
    expect(gateway.ledger.totalCharged()).toBe(2000);
  });
});
