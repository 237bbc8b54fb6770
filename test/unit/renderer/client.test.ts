import { describe, expect, it, vi } from 'vitest';
import { connect, mediaPath } from '../../../renderer/src/api/client.ts';
import { mediaVersion } from '../../../shared/api/media-version.ts';
import { onSessionEnd, SESSION_ENDED } from '../../../renderer/src/api/session.ts';
import { ApiRequestError } from '../../../shared/api/unwrap.ts';
import { fakeApi, Refusal } from './fake-api.ts';

const location = { origin: 'http://127.0.0.1:4321' };
/** A tab that opened its session (api/session.ts keeps it in sessionStorage). */
const grant = { token: 't'.repeat(43), sessionId: 'sess-1', mediaKey: 'k'.repeat(43) };
const storage = (value: unknown) => ({
  getItem: () => JSON.stringify(value),
  removeItem: vi.fn(),
});
const cat = { id: 26, createdAt: 1_700_000_000_000 };
const newerCat = { id: 27, createdAt: 1_700_000_500_000 };

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

  it('talks to the web host this page came from otherwise, with the tab’s session', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ ok: true, value: null })));
    const client = connect({ location, sessionStorage: storage(grant) }, { fetch });
    expect(client.host).toBe('web');
    await client.api.queue.resume();
    expect(fetch).toHaveBeenCalledWith(
      `${location.origin}/api/queue/resume`,
      expect.objectContaining({
        headers: expect.objectContaining({ authorization: `Bearer ${grant.token}` }),
      }),
    );
  });

  it('forgets the session and says so when the host refuses it', async () => {
    const error = { code: 'unauthorized', message: 'No session.' };
    const fetch = vi.fn(
      async () => new Response(JSON.stringify({ ok: false, error }), { status: 401 }),
    );
    const sessionStorage = storage(grant);
    const ended: string[] = [];
    const stop = onSessionEnd((message) => ended.push(message));
    await connect({ location, sessionStorage }, { fetch }).raw.app.info();
    stop();
    expect(sessionStorage.removeItem).toHaveBeenCalledWith('atelier.session');
    expect(ended).toEqual([SESSION_ENDED]);
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

  it('use the atelier: protocol on the desktop, each segment encoded, the image’s version', () => {
    expect(mediaPath('desktop', rel, 'image')).toBe(
      'atelier://media/cats%20%26%20dogs/%C3%A9t%C3%A9%20%231.png',
    );
    const desktop = connect({ atelier: fakeApi({}).raw, location }, { fetch: vi.fn() });
    expect(desktop.mediaUrl('a/b.png', 'thumb', cat)).toBe(
      `atelier://thumbs/a/b.png?v=26.${cat.createdAt.toString(36)}`,
    );
    // a newer image at the same path (its batch made again) is another URL
    expect(desktop.mediaUrl('a/b.png', 'image', newerCat)).not.toBe(
      desktop.mediaUrl('a/b.png', 'image', cat),
    );
  });

  it('are signed on the web host, with the image’s version, the same all the hour', () => {
    let now = Date.parse('2026-12-01T10:05:00Z');
    const client = connect(
      { location, sessionStorage: storage(grant) },
      { fetch: vi.fn(), now: () => now },
    );
    const url = new URL(client.mediaUrl('dir/x.png', 'thumb', cat), location.origin);
    expect(url.pathname).toBe('/thumbs/dir/x.png');
    expect([...url.searchParams.keys()]).toEqual(['v', 'exp', 'sid', 'sig']);
    expect(url.searchParams.get('v')).toBe(mediaVersion(cat));
    expect(url.searchParams.get('exp')).toBe(String(Date.parse('2026-12-01T12:00:00Z') / 1000));
    expect(url.searchParams.get('sid')).toBe('sess-1');
    expect(url.searchParams.get('sig')).toMatch(/^[\w-]{43}$/);
    // no secret in it: not the token, not the key
    expect(url.href).not.toContain(grant.token);
    expect(url.href).not.toContain(grant.mediaKey);
    const first = client.mediaUrl(rel, 'image', cat);
    expect(first).toMatch(/^\/media\/cats%20%26%20dogs\/%C3%A9t%C3%A9%20%231\.png\?v=/);
    now += 50 * 60_000;
    expect(client.mediaUrl(rel, 'image', cat)).toBe(first);
    expect(client.mediaUrl(rel, 'image', newerCat)).not.toBe(first);
    now += 10 * 60_000; // the next hour: minted again, valid until 13:00
    expect(client.mediaUrl(rel, 'image', cat)).not.toBe(first);
  });

  it('are plain paths, refused by the host, when the tab has no session', () => {
    const client = connect({ location, sessionStorage: storage(null) }, { fetch: vi.fn() });
    expect(client.mediaUrl('q?/x#.png', 'image', cat)).toBe('/media/q%3F/x%23.png');
  });
});

describe('export URLs', () => {
  it('are signed links to the web host’s download route, and null on the desktop', () => {
    const web = connect({ location, sessionStorage: storage(grant) }, { fetch: vi.fn() });
    expect(web.exportUrl('a1-b2')).toMatch(
      /^\/exports\/a1-b2\.zip\?exp=\d+&sid=sess-1&sig=[\w-]{43}$/,
    );
    const desktop = connect({ atelier: fakeApi({}).raw, location }, { fetch: vi.fn() });
    expect(desktop.exportUrl('a1-b2')).toBeNull();
  });
});

describe('a new window', () => {
  it('asks the host for a fresh code and opens the app with it, in a window of its own', async () => {
    const fetch = vi.fn(
      async () => new Response(JSON.stringify({ ok: true, value: { code: 'c0de', expiresAt: 1 } })),
    );
    const open = vi.fn();
    const client = connect({ location, sessionStorage: storage(grant), open }, { fetch });
    await client.newWindow!('/gallery');
    expect(fetch).toHaveBeenCalledWith(`${location.origin}/api/session/code`, {
      method: 'POST',
      credentials: 'omit',
      headers: { authorization: `Bearer ${grant.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(open).toHaveBeenCalledWith(
      `${location.origin}/#/gallery?code=c0de`,
      '_blank',
      'noopener',
    );
  });

  it('is offered only by the web host, to a tab with a session', () => {
    const open = vi.fn();
    expect(connect({ atelier: fakeApi({}).raw, location, open }).newWindow).toBeUndefined();
    expect(connect({ location, sessionStorage: storage(null), open }).newWindow).toBeUndefined();
  });
});
