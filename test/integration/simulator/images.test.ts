import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import { download, errorJson, okJson, onlyEntry, pictureOf, postJson } from './image-helpers.ts';

let gateway: RunningGateway;
afterEach(() => gateway?.close());

const GENERATIONS = '/v1/images/generations';
const ADVANCED = '/v1/svc/images/advanced';
const b64 = (text: string | undefined) => Buffer.from(text ?? '', 'base64');

describe('POST /v1/images/generations, OpenAI body', () => {
  it('returns temporary URLs that download as pictures of the asked size, and charges n images', async () => {
    gateway = await startGateway();
    const response = await postJson(gateway, GENERATIONS, {
      model: 'flux-schnell',
      prompt: 'a lighthouse at dusk',
      n: 3,
      size: '96x64',
    });
    expect(response.headers.get('x-svc-request-id')).toMatch(/^req_/);
    const body = await okJson(response);
    expect(body.created).toBeGreaterThan(1_600_000_000);
    expect(body.created).toBeLessThan(Date.now() / 1000 + 1);
    expect(body.upstream_request_id).toMatch(/^up_[0-9a-f]{24}$/);
    expect(body.data).toHaveLength(3);
    expect(body.metadata).toBeUndefined();
    const pictures = await Promise.all(body.data.map((item) => download(item.url!)));
    for (const bytes of pictures) {
      expect(await pictureOf(bytes)).toEqual({ width: 96, height: 64, format: 'png' });
    }
    expect(new Set(pictures.map((p) => p.toString('base64'))).size).toBe(3);
    for (const item of body.data) expect(item.b64_json).toBeUndefined();

    const entry = await onlyEntry(gateway);
    expect(entry).toMatchObject({
      requestId: response.headers.get('x-svc-request-id'),
      model: 'flux-schnell',
      endpoint: GENERATIONS,
      preDeducted: 900,
      charged: 900,
      units: 3,
      state: 'settled',
    });
    expect(gateway.ledger.balance).toBe(1e15 - 900);
  });

  it('returns b64_json in the asked output_format', async () => {
    gateway = await startGateway();
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const body = await okJson(
        await postJson(gateway, GENERATIONS, {
          model: 'gpt-image-1',
          prompt: 'a red bicycle',
          size: '1536x1024',
          quality: 'low',
          response_format: 'b64_json',
          output_format: format,
        }),
      );
      expect(body.data[0]?.url).toBeUndefined();
      expect(await pictureOf(b64(body.data[0]?.b64_json))).toEqual({
        width: 1536,
        height: 1024,
        format,
      });
    }
  });

  it('answers dall-e-3 with a deterministic revised_prompt, and dall-e-2 without one', async () => {
    gateway = await startGateway();
    const ask = (model: string) =>
      postJson(gateway, GENERATIONS, { model, prompt: 'a quiet harbour', size: '1024x1024' });
    const first = await okJson(await ask('dall-e-3'));
    expect(first.data[0]?.revised_prompt).toMatch(/^a quiet harbour, shown in .+\.$/);
    expect((await okJson(await ask('dall-e-2'))).data[0]).not.toHaveProperty('revised_prompt');
  });

  it("with imageResponse 'both', every image carries url and b64_json of the same bytes", async () => {
    gateway = await startGateway({ imageResponse: 'both' });
    const body = await okJson(
      await postJson(gateway, GENERATIONS, {
        model: 'flux-schnell',
        prompt: 'twin',
        size: '64x64',
        response_format: 'b64_json',
        output_format: 'webp',
      }),
    );
    const item = body.data[0]!;
    expect(item.url).toMatch(/\/files\/[0-9a-z]+\.webp$/);
    expect((await download(item.url!)).equals(b64(item.b64_json))).toBe(true);
  });

  it('refuses a model that is not offered on this path, pointing to the right one', async () => {
    gateway = await startGateway();
    const error = await errorJson(
      await postJson(gateway, GENERATIONS, { model: 'flux-pro', prompt: 'x' }),
      400,
    );
    expect(error.message).toContain(ADVANCED);
    expect(
      await errorJson(await postJson(gateway, GENERATIONS, { model: 'nope', prompt: 'x' }), 404),
    ).toMatchObject({ code: 'model_not_found' });
    expect(gateway.ledger.entries()).toHaveLength(0);
  });
});

describe('POST /v1/images/generations, Qwen-style body', () => {
  it('reads input.messages and parameters (W*H size, watermark, prompt_extend)', async () => {
    gateway = await startGateway();
    const request = (watermark: boolean) =>
      postJson(gateway, GENERATIONS, {
        model: 'qwen-image',
        input: { messages: [{ role: 'user', content: [{ text: 'a paper crane' }] }] },
        parameters: {
          size: '1664*928',
          negative_prompt: 'blurry',
          prompt_extend: true,
          watermark,
          seed: 12,
        },
      });
    const plain = await okJson(await request(false));
    expect(plain.data[0]?.revised_prompt).toMatch(/^a paper crane, /);
    const bytes = await download(plain.data[0]!.url!);
    expect(await pictureOf(bytes)).toEqual({ width: 1664, height: 928, format: 'png' });
    const marked = await download((await okJson(await request(true))).data[0]!.url!);
    expect(marked.equals(bytes)).toBe(false);

    await gateway.idle();
    expect(gateway.ledger.totalCharged()).toBe(2 * 2500);
  });

  it('refuses OpenAI fields in a Qwen body and a WxH size, charging nothing', async () => {
    gateway = await startGateway();
    const input = { messages: [{ role: 'user', content: [{ text: 'x' }] }] };
    const prompt = await errorJson(
      await postJson(gateway, GENERATIONS, { model: 'qwen-image', prompt: 'x', input }),
      400,
    );
    expect(prompt).toMatchObject({ param: 'prompt' });
    expect(prompt.message).toContain('input.messages');
    const size = await errorJson(
      await postJson(gateway, GENERATIONS, {
        model: 'qwen-image',
        input,
        parameters: { size: '1328x1328' },
      }),
      400,
    );
    expect(size.message).toContain('W*H');
    expect(gateway.ledger.entries()).toHaveLength(0);
  });
});

describe('POST /v1/svc/images/advanced', () => {
  it('maps named sizes and aspect ratios, and honours seed, n and extra', async () => {
    gateway = await startGateway();
    const cases: Array<[string, number, number]> = [
      ['square_hd', 1024, 1024],
      ['landscape_4_3', 1024, 768],
      ['portrait_4_3', 768, 1024],
      ['landscape_16_9', 1024, 576],
      ['portrait_16_9', 576, 1024],
      ['1:1', 1024, 1024],
      ['16:9', 1024, 576],
      ['9:16', 576, 1024],
      ['320x200', 320, 200],
    ];
    for (const [size, width, height] of cases) {
      const body = await okJson(
        await postJson(gateway, ADVANCED, {
          model: 'flux-pro',
          prompt: 'a map',
          size,
          seed: 5,
          output_format: 'jpeg',
          response_format: 'b64_json',
          extra: { guidance_scale: 3.5 },
          extra_fields: { style: 'ink' },
        }),
      );
      expect(await pictureOf(b64(body.data[0]?.b64_json))).toEqual({
        width,
        height,
        format: 'jpeg',
      });
    }
  });

  it('is deterministic: same prompt+seed → same bytes; another seed or index → other bytes', async () => {
    gateway = await startGateway();
    const ask = (seed: number, extra?: object) =>
      postJson(gateway, ADVANCED, {
        model: 'flux-schnell',
        prompt: 'a fox in snow',
        size: '128x96',
        n: 2,
        seed,
        response_format: 'b64_json',
        ...(extra ? { extra } : {}),
      }).then(okJson);
    const [a, b, c, d] = await Promise.all([ask(7), ask(7), ask(8), ask(7, { steps: 4 })]);
    const bytes = (answer: typeof a, i: number) => b64(answer.data[i]?.b64_json);
    expect(bytes(a, 0).equals(bytes(b, 0))).toBe(true);
    expect(bytes(a, 1).equals(bytes(b, 1))).toBe(true);
    expect(bytes(a, 0).equals(bytes(a, 1))).toBe(false);
    expect(bytes(a, 0).equals(bytes(c, 0))).toBe(false);
    expect(bytes(a, 0).equals(bytes(d, 0))).toBe(false);

    // Restarting the simulator gives the same pictures for the same seed.
    await gateway.close();
    gateway = await startGateway();
    expect(bytes(await ask(7), 0).equals(bytes(a, 0))).toBe(true);
  });

  it('without a seed, repeated calls differ, and a restarted simulator repeats the sequence', async () => {
    const run = async () => {
      gateway = await startGateway({ seed: 3 });
      const ask = () =>
        postJson(gateway, ADVANCED, {
          model: 'flux-schnell',
          prompt: 'no seed',
          size: '32x32',
          response_format: 'b64_json',
        })
          .then(okJson)
          .then((body) => body.data[0]!.b64_json!);
      const first = await ask();
      const second = await ask();
      await gateway.close();
      return [first, second];
    };
    const [a1, a2] = await run();
    const [b1, b2] = await run();
    expect(a1).not.toBe(a2);
    expect([b1, b2]).toEqual([a1, a2]);
  });

  it('uses the configured path segment', async () => {
    gateway = await startGateway({ advancedSegment: 'gw' });
    await okJson(
      await postJson(gateway, '/v1/gw/images/advanced', {
        model: 'flux-schnell',
        prompt: 'x',
        size: '16x16',
      }),
    );
    expect((await postJson(gateway, ADVANCED, { model: 'flux-schnell', prompt: 'x' })).status).toBe(
      404,
    );
  });

  it('refuses a model that is not offered on the advanced entry', async () => {
    gateway = await startGateway();
    const error = await errorJson(
      await postJson(gateway, ADVANCED, { model: 'dall-e-3', prompt: 'x' }),
      400,
    );
    expect(error.message).toContain(GENERATIONS);
  });
});
