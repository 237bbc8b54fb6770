import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import { download, okJson, pictureOf, postJson } from './image-helpers.ts';

let gateway: RunningGateway;
afterEach(() => gateway?.close());

async function oneUrl(size = '64x64', format = 'png'): Promise<string> {
  const body = await okJson(
    await postJson(gateway, '/v1/images/generations', {
      model: 'flux-schnell',
      prompt: 'a file to fetch',
      size,
      output_format: format,
    }),
  );
  return body.data[0]!.url!;
}

describe('GET /files/<id>.<ext>', () => {
  it('serves the picture without a key, with its content type and length, the same bytes each time', async () => {
    gateway = await startGateway();
    for (const [format, type, ext] of [
      ['png', 'image/png', 'png'],
      ['jpeg', 'image/jpeg', 'jpg'],
      ['webp', 'image/webp', 'webp'],
    ]) {
      const url = await oneUrl('80x40', format);
      expect(url.startsWith(`${gateway.url}/files/`)).toBe(true);
      expect(url.endsWith(`.${ext}`)).toBe(true);
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('x-svc-request-id')).toMatch(/^req_/);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
      expect(await pictureOf(bytes)).toEqual({ width: 80, height: 40, format });
      expect((await download(url)).equals(bytes)).toBe(true);
    }
  });

  it('answers 404 with an "expired" message once urlTtlMs has passed', async () => {
    let now = Date.now();
    gateway = await startGateway({ urlTtlMs: 50, now: () => now });
    const url = await oneUrl();
    await download(url);
    now += 80; // past the link's lifetime
    const response = await fetch(url);
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('file_expired');
    expect(body.error.message).toMatch(/expired/);
  });

  it('answers 404 "not found" for a made-up link and for another extension', async () => {
    gateway = await startGateway();
    const url = await oneUrl();
    for (const wrong of [`${gateway.url}/files/abc123.png`, url.replace(/\.png$/, '.webp')]) {
      const response = await fetch(wrong);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
        'file_not_found',
      );
    }
  });

  it('applies the download faults: url-404, url-500, then a truncated body; a retry succeeds', async () => {
    gateway = await startGateway({ faults: 'url-404@1,url-500@2,url-truncate@3' });
    const url = await oneUrl('256x256');

    const expired = await fetch(url);
    expect(expired.status).toBe(404);
    expect(((await expired.json()) as { error: { message: string } }).error.message).toMatch(
      /expired/,
    );

    const failing = await fetch(url);
    expect(failing.status).toBe(500);
    await failing.arrayBuffer();

    const truncated = await fetch(url);
    expect(truncated.status).toBe(200);
    const announced = Number(truncated.headers.get('content-length'));
    expect(announced).toBeGreaterThan(0);
    // The body stops halfway: fetch reports an error rather than short data.
    await expect(truncated.arrayBuffer()).rejects.toThrow();

    // Interface 7 rule 6: retry the download, not the generation.
    const retry = await download(url);
    expect(retry.length).toBe(announced);
    await gateway.idle();
    expect(gateway.ledger.entries()).toHaveLength(1);
    expect(gateway.ledger.totalCharged()).toBe(300);
  });

  it('draws downloads from their own fault scope: work faults do not hit them', async () => {
    gateway = await startGateway({ faults: 'empty@2' });
    const url = await oneUrl();
    // Second work request would be empty; a download is not a work request.
    expect((await fetch(url)).status).toBe(200);
    const second = await okJson(
      await postJson(gateway, '/v1/images/generations', {
        model: 'flux-schnell',
        prompt: 'x',
        size: '16x16',
      }),
    );
    expect(second.data).toEqual([]);
  });
});
