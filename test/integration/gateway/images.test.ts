import { describe, expect, it } from 'vitest';
import { bytesOf, PNG_SIGNATURE, rig, success } from './harness.ts';

const prompt = 'a lighthouse at dusk';

describe('image endpoints against the simulator', () => {
  it('generates with the OpenAI body and keeps both request ids', async () => {
    const { client, gateway } = await rig();
    const outcome = await client.generateImage({
      model: 'flux-schnell',
      prompt,
      size: '64x64',
      n: 2,
    });
    const result = success(outcome);
    expect(result.images).toHaveLength(2);
    expect(result.images[0]?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\//);
    expect(result.partial).toBeNull();
    expect(typeof result.created).toBe('number');
    expect(outcome.ok && outcome.requestIds.requestId).toMatch(/^req_/);
    expect(outcome.ok && outcome.requestIds.upstreamRequestId).toBeTruthy();
    await gateway.idle();
    const entry = gateway.ledger.find(outcome.ok ? (outcome.requestIds.requestId ?? '') : '');
    expect(entry).toMatchObject({ state: 'settled', units: 2, endpoint: '/v1/images/generations' });
  });

  it('returns base64 when asked, and revised prompts where the model rewrites them', async () => {
    const { client } = await rig();
    const result = success(
      await client.generateImage({ model: 'gpt-image-1', prompt, response_format: 'b64_json' }),
    );
    const image = result.images[0];
    expect(image?.url).toBeNull();
    expect(Buffer.from(image?.b64Json ?? '', 'base64').subarray(0, 4)).toEqual(PNG_SIGNATURE);
    expect(image?.revisedPrompt).toContain('a lighthouse at dusk');
  });

  it('handles answers that carry url and b64_json together', async () => {
    const { client } = await rig({ imageResponse: 'both' });
    const [image] = success(
      await client.generateImage({ model: 'flux-schnell', prompt, size: '32x32' }),
    ).images;
    expect(image?.url).toBeTruthy();
    expect(image?.b64Json).toBeTruthy();
  });

  it('sends the Qwen-style body for qwen-image (size as W*H)', async () => {
    const { client, gateway } = await rig();
    const outcome = await client.generateImage({
      model: 'qwen-image',
      prompt,
      size: '1328x1328',
      n: 2,
      negative_prompt: 'blur',
      watermark: false,
      prompt_extend: true,
      seed: 7,
    });
    expect(success(outcome).images).toHaveLength(2);
    await gateway.idle();
    expect(gateway.ledger.entries()[0]).toMatchObject({ model: 'qwen-image', units: 2 });
  });

  it('uses the advanced entry for flux-pro, with seed, extra and a named size', async () => {
    const { client, gateway } = await rig();
    const request = {
      model: 'flux-pro',
      prompt,
      size: 'square_hd',
      seed: 42,
      extra: { guidance_scale: 3.5 },
      response_format: 'b64_json',
    };
    const first = success(await client.generateImage(request));
    const again = success(await client.generateAdvanced(request));
    // A seed makes the picture reproducible: the same bytes come back.
    expect(first.images[0]?.b64Json).toBe(again.images[0]?.b64Json);
    await gateway.idle();
    expect(gateway.ledger.entries().map((e) => e.endpoint)).toEqual([
      '/v1/svc/images/advanced',
      '/v1/svc/images/advanced',
    ]);
  });

  it('sends a seeded flux-schnell request to the advanced entry', async () => {
    const { client, gateway } = await rig();
    success(await client.generateImage({ model: 'flux-schnell', prompt, size: '32x32', seed: 1 }));
    await gateway.idle();
    expect(gateway.ledger.entries()[0]?.endpoint).toBe('/v1/svc/images/advanced');
  });

  it('edits with a multipart form and with the Qwen JSON body', async () => {
    const { client, gateway } = await rig();
    const source = success(
      await client.generateImage({
        model: 'flux-schnell',
        prompt,
        size: '64x64',
        response_format: 'b64_json',
      }),
    );
    const bytes = Buffer.from(source.images[0]?.b64Json ?? '', 'base64');
    const image = { bytes, filename: 'source.png', mimeType: 'image/png' };

    const multipart = success(
      await client.editImage({
        model: 'flux-schnell',
        prompt: 'make it blue',
        image,
        size: '64x64',
      }),
    );
    expect(multipart.images).toHaveLength(1);

    const qwen = success(
      await client.editImage({
        model: 'qwen-image-edit',
        prompt: 'make it red',
        image,
        n: 2,
        seed: 3,
        negative_prompt: 'noise',
      }),
    );
    expect(qwen.images).toHaveLength(2);

    const byLink = success(
      await client.editImage({
        model: 'qwen-image-edit',
        prompt: 'make it green',
        image: { url: multipart.images[0]?.url ?? '' },
      }),
    );
    expect(byLink.images).toHaveLength(1);
    await gateway.idle();
    expect(gateway.ledger.entries().filter((e) => e.endpoint === '/v1/images/edits')).toHaveLength(
      3,
    );
  });

  it.each(['metadata', 'top-level', 'nested'] as const)(
    'reports a partial success with the counts placed %s',
    async (partialPlacement) => {
      const { client } = await rig({ faults: 'partial@1', partialPlacement });
      const result = success(
        await client.generateImage({ model: 'flux-schnell', prompt, size: '32x32', n: 4 }),
      );
      expect(result.images).toHaveLength(2);
      expect(result.partial).toMatchObject({ requestedN: 4, returnedN: 2, failedRequests: 2 });
    },
  );

  it('follows a profile with other gateway names', async () => {
    const names = {
      requestIdHeader: 'X-Acme-Request-Id',
      advancedSegment: 'acme',
      partialKey: 'acme_partial',
    };
    const { client, gateway } = await rig({ ...names, faults: 'partial@2' }, { profile: names });
    const advanced = await client.generateAdvanced({ model: 'flux-pro', prompt, size: '64x64' });
    expect(advanced.ok && advanced.requestIds.requestId).toMatch(/^req_/);
    const partial = success(
      await client.generateImage({ model: 'flux-schnell', prompt, size: '32x32', n: 2 }),
    );
    expect(partial.partial).toMatchObject({ requestedN: 2, returnedN: 1 });
    await gateway.idle();
    expect(gateway.ledger.entries()[0]?.endpoint).toBe('/v1/acme/images/advanced');
  });

  it('downloads a temporary link as a stream of PNG bytes', async () => {
    const { client } = await rig();
    const [image] = success(
      await client.generateImage({ model: 'flux-schnell', prompt, size: '32x32' }),
    ).images;
    const download = success(await client.downloadImage(image?.url ?? ''));
    expect(download.contentType).toBe('image/png');
    const bytes = await bytesOf(download.body);
    expect(bytes.subarray(0, 4)).toEqual(PNG_SIGNATURE);
    expect(bytes.length).toBe(download.contentLength);
  });
});
