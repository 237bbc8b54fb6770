import { describe, expect, it, vi } from 'vitest';
import { connect, mediaUrl } from '../../../renderer/src/api/client.ts';
import { ApiRequestError } from '../../../shared/api/unwrap.ts';
import { fakeApi, Refusal } from './fake-api.ts';

const location = { origin: 'http://127.0.0.1:4321' };

describe('connect', () => {
  it('uses the preload’s API when the page runs in the desktop window', async () => {
    const fake = fakeApi({ 'library.previewTemplate': () => ({ example: 'cat-1.png' }) });
    const fetch = vi.fn();
    const client = connect({ atelier: fake.raw, location }, { fetch });
    expect(client.host).toBe('desktop');
    expect(client.raw).toBe(fake.raw);
    await expect(client.api.library.previewTemplate({ template: '{n}' })).resolves.toEqual({
      example: 'cat-1.png',
    });
    expect(fake.calls).toEqual([{ name: 'library.previewTemplate', input: { template: '{n}' } }]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('talks to the web host this page came from otherwise', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ ok: true, value: null })));
    const client = connect({ location }, { fetch });
    expect(client.host).toBe('web');
    await client.api.queue.resume();
    expect(fetch).toHaveBeenCalledWith(`${location.origin}/api/queue/resume`, expect.anything());
  });

  it('throws an error Result as ApiRequestError, with its code and details', async () => {
    const fake = fakeApi({
      'batches.get': () => {
        throw new Refusal({ code: 'not-found', message: 'No batch 9.', details: { id: 9 } });
      },
    });
    const error = await connect({ atelier: fake.raw, location })
      .api.batches.get({ id: 9 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ code: 'not-found', message: 'No batch 9.', details: { id: 9 } });
  });

  it('throws the transport’s internal Result when the web host does not answer', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(connect({ location }, { fetch }).api.app.info()).rejects.toMatchObject({
      name: 'ApiRequestError',
      code: 'internal',
    });
  });
});

describe('media URLs', () => {
  const rel = 'cats & dogs/été #1.png';

  it('use the atelier: protocol on the desktop, each segment encoded', () => {
    expect(mediaUrl('desktop', rel, 'image')).toBe(
      'atelier://media/cats%20%26%20dogs/%C3%A9t%C3%A9%20%231.png',
    );
    expect(mediaUrl('desktop', 'a/b.png', 'thumb')).toBe('atelier://thumbs/a/b.png');
  });

  it('use /media and /thumbs on the web host, the thumbnail by the image’s path', () => {
    const client = connect({ location }, { fetch: vi.fn() });
    expect(client.mediaUrl('dir/x.png', 'thumb')).toBe('/thumbs/dir/x.png');
    expect(client.mediaUrl(rel, 'image')).toBe('/media/cats%20%26%20dogs/%C3%A9t%C3%A9%20%231.png');
    expect(client.mediaUrl('q?/x#.png', 'image')).toBe('/media/q%3F/x%23.png');
  });
});

describe('export URLs', () => {
  it('point at the web host’s download route, and are null on the desktop', () => {
    expect(connect({ location }, { fetch: vi.fn() }).exportUrl('a1-b2')).toBe('/exports/a1-b2.zip');
    const desktop = connect({ atelier: fakeApi({}).raw, location }, { fetch: vi.fn() });
    expect(desktop.exportUrl('a1-b2')).toBeNull();
  });
});
