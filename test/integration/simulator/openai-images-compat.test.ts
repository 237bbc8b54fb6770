import OpenAI, { toFile } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import { pixels, rectMask } from '../../support/edit-pictures.ts';
import { download, pictureDistance, pictureOf, solidPng } from './image-helpers.ts';

let gateway: RunningGateway;
afterEach(() => gateway?.close());

async function client(options: Parameters<typeof startGateway>[0] = {}) {
  gateway = await startGateway(options);
  return new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: gateway.key, maxRetries: 0 });
}

describe('the official openai client against the simulator: images', () => {
  it('images.generate with the default URL answer', async () => {
    const openai = await client();
    const result = await openai.images.generate({
      model: 'dall-e-3',
      prompt: 'a lighthouse at dusk',
      size: '1792x1024',
      quality: 'hd',
    });
    expect(result.created).toBeGreaterThan(0);
    expect(result.data).toHaveLength(1);
    expect(result.data?.[0]?.revised_prompt).toContain('a lighthouse at dusk');
    const bytes = await download(result.data![0]!.url!);
    expect(await pictureOf(bytes)).toEqual({ width: 1792, height: 1024, format: 'png' });
  });

  it('images.generate with b64_json, n and output_format', async () => {
    const openai = await client();
    const result = await openai.images.generate({
      model: 'gpt-image-1',
      prompt: 'three pears',
      n: 2,
      size: '1024x1536',
      response_format: 'b64_json',
      output_format: 'jpeg',
    });
    expect(result.data).toHaveLength(2);
    for (const item of result.data ?? []) {
      expect(await pictureOf(Buffer.from(item.b64_json!, 'base64'))).toEqual({
        width: 1024,
        height: 1536,
        format: 'jpeg',
      });
    }
  });

  it('images.edit sends a multipart form (toFile) and gets an edited picture back', async () => {
    const openai = await client();
    const input = await solidPng(256, 256, [30, 90, 200]);
    const result = await openai.images.edit({
      model: 'dall-e-2',
      image: await toFile(input, 'input.png', { type: 'image/png' }),
      prompt: 'add a yellow sun',
      size: '256x256',
      n: 2,
      response_format: 'b64_json',
    });
    expect(result.data).toHaveLength(2);
    const edited = Buffer.from(result.data![0]!.b64_json!, 'base64');
    expect(await pictureOf(edited)).toEqual({ width: 256, height: 256, format: 'png' });
    expect(await pictureDistance(edited, input)).toBeGreaterThan(2);
    await gateway.idle();
    expect(gateway.ledger.totalCharged()).toBe(2 * 2000);
  });

  it('images.edit with a mask, answered as a URL', async () => {
    const openai = await client();
    const input = await solidPng(1024, 1024, [200, 200, 200]);
    const mask = await rectMask(1024, 1024, { left: 0, top: 0, width: 256, height: 256 });
    const result = await openai.images.edit({
      model: 'gpt-image-1',
      image: await toFile(input, 'in.png', { type: 'image/png' }),
      mask: await toFile(mask, 'mask.png', { type: 'image/png' }),
      prompt: 'a small boat',
    });
    const edited = await pixels(await download(result.data![0]!.url!));
    expect(edited).toMatchObject({ width: 1024, height: 1024 });
    // What the mask keeps is the input (a few levels brighter); the transparent corner changed.
    expect(edited.at(800, 800).slice(0, 3)).toEqual([206, 206, 206]);
    expect(edited.at(100, 100).slice(0, 3)).not.toEqual([206, 206, 206]);
  });

  it('surfaces gateway errors as typed API errors with status and code', async () => {
    const openai = await client({ balance: 10 });
    const refused = openai.images.generate({ model: 'dall-e-2', prompt: 'x', size: '640x480' });
    await expect(refused).rejects.toMatchObject({ status: 400, code: 'invalid_size' });
    const poor = openai.images.generate({ model: 'dall-e-2', prompt: 'x', size: '256x256' });
    await expect(poor).rejects.toMatchObject({ code: 'insufficient_user_quota' });
    const wrongTool = openai.images.edit({
      model: 'dall-e-3',
      image: await toFile(await solidPng(8, 8, [0, 0, 0]), 'a.png', { type: 'image/png' }),
      prompt: 'x',
    });
    await expect(wrongTool).rejects.toMatchObject({ status: 400, code: 'unsupported_model' });
    const maskWithoutAlpha = openai.images.edit({
      model: 'gpt-image-1',
      image: await toFile(await solidPng(8, 8, [0, 0, 0]), 'a.png', { type: 'image/png' }),
      mask: await toFile(await solidPng(8, 8, [0, 0, 0]), 'm.png', { type: 'image/png' }),
      prompt: 'x',
    });
    await expect(maskWithoutAlpha).rejects.toMatchObject({ status: 400, code: 'invalid_mask' });
  });
});
