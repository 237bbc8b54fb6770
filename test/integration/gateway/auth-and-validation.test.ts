import { describe, expect, it } from 'vitest';
import type { ImageRequest } from '../../../shared/gateway/requests.ts';
import { failure, rig, success } from './harness.ts';

const request = { model: 'flux-schnell', prompt: 'a lighthouse at dusk', size: '32x32' };

describe('authentication, permission and balance → pause-queue', () => {
  it('an unknown key (401)', async () => {
    const { client } = await rig({}, { apiKey: 'sk-unknown-key-123456' });
    expect(failure(await client.generateImage(request))).toMatchObject({
      decision: 'pause-queue',
      kind: 'auth',
      status: 401,
      code: 'invalid_api_key',
    });
  });

  it('an expired key (401)', async () => {
    const { client } = await rig({ keys: [{ key: 'sk-old-0001', expiresAt: Date.now() - 1 }] });
    expect(failure(await client.generateImage(request))).toMatchObject({
      decision: 'pause-queue',
      code: 'api_key_expired',
    });
  });

  it('a model outside the key whitelist (403)', async () => {
    const { client } = await rig({ keys: [{ key: 'sk-narrow-0001', models: ['gpt-4o-mini'] }] });
    const outcome = failure(await client.generateImage(request));
    expect(outcome).toMatchObject({ decision: 'pause-queue', kind: 'permission', status: 403 });
    expect(outcome.message).toMatch(/model_not_allowed/);
  });

  it('insufficient_user_quota (sent with 403)', async () => {
    const { client, gateway } = await rig({ balance: 100 });
    const outcome = failure(await client.generateImage(request));
    expect(outcome).toMatchObject({
      decision: 'pause-queue',
      kind: 'balance',
      status: 403,
      code: 'insufficient_user_quota',
    });
    expect(outcome.message).toMatch(/Top up/);
    await gateway.idle();
    expect(gateway.ledger.entries()).toHaveLength(0);
  });

  it('pre_consume_token_quota_failed: not retried, the queue pauses', async () => {
    const { client } = await rig({ keys: [{ key: 'sk-capped-0001', quotaCap: 100 }] });
    const outcome = failure(await client.generateImage(request));
    expect(outcome).toMatchObject({
      decision: 'pause-queue',
      kind: 'balance',
      code: 'pre_consume_token_quota_failed',
    });
    expect(outcome.message).toMatch(/Not retried automatically/);
  });

  it('no key at all: nothing is sent', async () => {
    const { client, sent } = await rig({}, { apiKey: () => null });
    const outcome = failure(await client.generateImage(request));
    expect(outcome).toMatchObject({ decision: 'pause-queue', kind: 'auth', sent: false });
    expect(sent).toHaveLength(0);
  });
});

describe('validation: nothing invalid leaves the machine', () => {
  const invalid: Array<[string, ImageRequest, RegExp]> = [
    ['× in the size', { ...request, size: '32×32' }, /multiplication sign ×/],
    ['n above the model range', { model: 'qwen-image', prompt: 'x', n: 5 }, /from 1 to 4/],
    ['seed out of range', { model: 'flux-pro', prompt: 'x', seed: 2 ** 32 }, /0 to 4294967295/],
    [
      'unsupported field',
      { model: 'dall-e-3', prompt: 'x', output_format: 'webp' },
      /always makes PNG/,
    ],
    [
      'image_urls on the advanced entry',
      { model: 'flux-pro', prompt: 'x', image_urls: ['https://a/b.png'] },
      /blocked/,
    ],
    [
      'webhook on the advanced entry',
      { model: 'flux-pro', prompt: 'x', webhook: 'https://a/hook' },
      /blocked/,
    ],
    ['an empty prompt', { model: 'flux-schnell', prompt: ' ' }, /prompt is empty/],
  ];

  it.each(invalid)('%s', async (_, bad, message) => {
    const { client, gateway, sent, log } = await rig();
    const outcome = failure(await client.generateImage(bad));
    expect(outcome).toMatchObject({
      decision: 'fail',
      kind: 'invalid-request',
      sent: false,
      status: null,
    });
    expect(outcome.message).toMatch(message);
    expect(sent).toHaveLength(0);
    expect(log.join('\n')).toMatch(/not sent/);
    await gateway.idle();
    expect(gateway.ledger.entries()).toHaveLength(0);
  });

  it('the same fields the client lets through, the simulator accepts', async () => {
    const { client, sent } = await rig();
    success(
      await client.generateAdvanced({
        model: 'flux-pro',
        prompt: 'x',
        size: '16:9',
        seed: 0,
        n: 10,
      }),
    );
    expect(sent).toHaveLength(1);
  });
});
