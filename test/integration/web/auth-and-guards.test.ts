import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { signedPath } from '../../../main/web/signed-url.ts';
import { CONTENT_SECURITY_POLICY } from '../../../main/web/static.ts';
import { codeInFragment, SIGNED_OUT_HELP, type SessionGrant } from '../../../shared/api/session.ts';
import { signedUrlExpiry } from '../../../shared/api/signed-url.ts';
import { APP_INFO } from '../../support/fake-served-app.ts';
import { INDEX_HTML, openEvents, startTestHost } from './harness.ts';

const unauthorized = { ok: false, error: { code: 'unauthorized', message: expect.any(String) } };
const forbidden = { ok: false, error: { code: 'forbidden', message: expect.any(String) } };

/** The code of an address the host gave. */
const codeOf = (address: string) => codeInFragment(new URL(address).hash).code!;

describe('web host: session', () => {
  it('serves the page to anyone, and nothing else without an open session', async () => {
    const t = await startTestHost();
    await writeFile(`${t.libraryDir}/a.png`, 'png bytes');
    expect((await t.get('/', { authorization: '' })).text).toBe(INDEX_HTML);
    expect((await t.get('/assets/app.js', { authorization: '' })).status).toBe(200);
    const refusals: Array<Record<string, string>> = [
      { authorization: '' },
      { authorization: 'Bearer wrong-token-0123456789' },
      { authorization: t.grant.token }, // not a Bearer
      { authorization: `Basic ${t.grant.token}` },
      // cookies open nothing: the token as any cookie, or the old cookie of this port
      { authorization: '', cookie: `atelier-${t.port}=${t.grant.token}` },
      { authorization: '', cookie: `token=${t.grant.token}; session=${t.grant.token}` },
    ];
    for (const headers of refusals) {
      const call = await t.call('app', 'info', {}, headers);
      expect(call.status, JSON.stringify(headers)).toBe(401);
      expect(call.json).toEqual(unauthorized);
      expect(call.headers['www-authenticate']).toBe('Bearer realm="Atelier"');
      for (const path of [
        '/api/events',
        '/media/a.png',
        '/thumbs/a.png',
        '/thumb-bundle?p=a.png',
        '/exports/x.zip',
        '/other/page',
      ]) {
        expect((await t.get(path, headers)).status, path).toBe(401);
      }
      expect((await t.call('session', 'code', {}, headers)).status).toBe(401);
    }
    // the same session's token opens them
    expect((await t.call('app', 'info', {})).json).toEqual({ ok: true, value: APP_INFO });
    expect((await t.get('/media/a.png')).text).toBe('png bytes');
    expect(t.log.join('\n')).not.toContain(t.grant.token);
  });

  it('trades a code once for a session; a second use ends the session it opened', async () => {
    const t = await startTestHost();
    const address = t.host.newAddress();
    expect(address).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${t.port}/#code=[\\w-]{43}$`));
    const code = codeOf(address);
    const first = await t.post('/api/session', { code }, { authorization: '' });
    expect(first.status).toBe(200);
    const grant = first.json.value;
    expect(Object.keys(grant).sort()).toEqual(['mediaKey', 'sessionId', 'token']);
    expect(grant.token).not.toBe(t.grant.token);
    expect(first.headers['cache-control']).toBe('no-store');
    const bearer = { authorization: `Bearer ${grant.token}` };
    expect((await t.call('app', 'info', {}, bearer)).status).toBe(200);
    const stream = await openEvents(t, bearer);
    expect(stream.status).toBe(200);
    const ours = await openEvents(t);

    // someone else read the address and raced: whoever comes second is refused, and the
    // session the code opened is ended, since nothing tells which of the two is the person
    const again = await t.post('/api/session', { code }, { authorization: '' });
    expect(again.status).toBe(401);
    expect(again.json.error.message).toMatch(/already used/);
    expect((await t.call('app', 'info', {}, bearer)).status).toBe(401);
    await expect(stream.next()).rejects.toThrow('The event stream ended.');
    expect(t.log.join('\n')).toMatch(/used twice/);
    // other sessions stay open, their streams too
    expect((await t.call('app', 'info', {})).status).toBe(200);
    t.app.events.emit([{ type: 'queue.resumed', payload: {} }]);
    expect((await ours.nextEvents()).events).toEqual([{ type: 'queue.resumed', payload: {} }]);

    for (const body of [{ code: 'made-up-code-0123456789abcdef' }, { code: 42 }, {}]) {
      const refused = await t.post('/api/session', body, { authorization: '' });
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.json.ok).toBe(false);
    }
    expect(t.log.join('\n')).not.toContain(code);
    expect(t.log.join('\n')).not.toContain(grant.token);
  });

  it('refuses a code after a minute', async () => {
    let now = Date.parse('2026-12-01T10:00:00Z');
    const t = await startTestHost({ now: () => now });
    const late = codeOf(t.host.newAddress());
    const inTime = codeOf(t.host.newAddress());
    now += 59_000;
    expect((await t.post('/api/session', { code: inTime }, { authorization: '' })).status).toBe(
      200,
    );
    now += 1_001;
    const expired = await t.post('/api/session', { code: late }, { authorization: '' });
    expect(expired.status).toBe(401);
    expect(expired.json.error.message).toMatch(/expired.*Press Enter/);
  });

  it('gives an open session a fresh code for another window', async () => {
    const t = await startTestHost();
    const fresh = await t.call('session', 'code', {});
    expect(fresh.status).toBe(200);
    expect(fresh.json.value.expiresAt).toBeGreaterThan(Date.now() + 50_000);
    const other = await t.post(
      '/api/session',
      { code: fresh.json.value.code },
      { authorization: '' },
    );
    expect(other.status).toBe(200);
    expect(other.json.value.sessionId).not.toBe(t.grant.sessionId);
    const bearer = { authorization: `Bearer ${other.json.value.token}` };
    expect((await t.call('app', 'info', {}, bearer)).status).toBe(200);
  });

  it('ignores cookies: a tossed or stale one, or hundreds of kilobytes of them, lock no one out', async () => {
    const t = await startTestHost();
    // what another server on 127.0.0.1 can make the browser send here (cookies ignore ports)
    const tossed = [
      `atelier-${t.port}=bogus`,
      'atelier-1234=stale',
      ...Array.from({ length: 180 }, (_, i) => `junk${i}=${'x'.repeat(4000)}`),
    ].join('; ');
    expect(tossed.length).toBeGreaterThan(700_000);
    const call = await t.call('app', 'info', {}, { cookie: tossed });
    expect(call.status).toBe(200);
    expect((await t.get('/', { cookie: tossed })).status).toBe(200);
    expect((await t.get(t.signed('/media/none.png'), { cookie: tossed })).status).toBe(404);
  });

  it('tells a browser window without a session how to open Atelier, in a page', async () => {
    const t = await startTestHost();
    const windows: Array<Record<string, string>> = [
      { 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'none' },
      { accept: 'text/html,application/xhtml+xml' }, // an older browser: no Sec-Fetch-*
    ];
    for (const headers of windows) {
      for (const path of ['/media/a.png', '/exports/x.zip', '/somewhere']) {
        const page = await t.get(path, { authorization: '', ...headers });
        expect(page.status).toBe(401);
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(page.text).toContain('<title>Open Atelier from its address</title>');
        expect(page.text).toContain(SIGNED_OUT_HELP.replace(/"/g, '&quot;'));
        expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      }
    }
    // the app's own calls still get the contract's JSON
    const call = await t.call('app', 'info', {}, { authorization: '', 'sec-fetch-mode': 'cors' });
    expect(call.json).toEqual(unauthorized);
  });
});

describe('web host: signed URLs', () => {
  const LIBRARY_FILES: Array<[string, string]> = [
    ['a.png', 'png bytes'],
    ['b.png', 'other bytes'],
    ['clip.mp4', '0123456789'],
  ];
  async function hostWithFiles(now?: () => number) {
    const t = await startTestHost(now ? { now } : {});
    for (const [name, bytes] of LIBRARY_FILES) await writeFile(`${t.libraryDir}/${name}`, bytes);
    return t;
  }
  const noBearer = { authorization: '' };

  it('open the one path they sign, until they expire, with Range', async () => {
    let now = Date.parse('2026-12-01T10:20:00Z');
    const t = await hostWithFiles(() => now);
    const exp = signedUrlExpiry(now);
    expect(exp * 1000 - now).toBe(100 * 60_000); // minted 20 minutes into the hour: until 12:00
    const url = t.signed('/media/a.png', { expires: exp });
    expect((await t.get(url, noBearer)).text).toBe('png bytes');
    const video = await t.get(t.signed('/media/clip.mp4', { expires: exp }), {
      ...noBearer,
      range: 'bytes=3-6',
    });
    expect(video.status).toBe(206);
    expect(video.text).toBe('3456');

    // another path under the same signature, a changed signature, expiry or session
    const query = url.slice(url.indexOf('?'));
    const params = new URLSearchParams(query);
    const tampered = [
      `/media/b.png${query}`,
      `/thumbs/a.png${query}`,
      `/media/a.png?${set(
        params,
        'sig',
        params.get('sig')!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
      )}`,
      `/media/a.png?${set(params, 'exp', String(exp + 3600))}`,
      `/media/a.png?${set(params, 'sid', 'someone-else')}`,
      `/media/a.png?${set(params, 'exp', 'soon')}`,
      `/media/a.png?exp=${exp}&sid=${t.grant.sessionId}`,
    ];
    for (const path of tampered) {
      const reply = await t.get(path, noBearer);
      expect(reply.status, path).toBe(401);
      expect(reply.json).toEqual(unauthorized);
    }
    // signed too far ahead: a page never does, a stolen media key would
    const far = t.signed('/media/a.png', { expires: exp + 7200 });
    expect((await t.get(far, noBearer)).status).toBe(401);
    // the bundle and the API take the bearer only
    const bundle = t.signed('/thumb-bundle');
    expect((await t.get(`${bundle}&p=a.png`, noBearer)).status).toBe(401);

    now = exp * 1000 - 1;
    expect((await t.get(url, noBearer)).status).toBe(200);
    now = exp * 1000;
    expect((await t.get(url, noBearer)).status).toBe(401);
  });

  it('end with their session', async () => {
    const t = await hostWithFiles();
    const code = codeOf(t.host.newAddress());
    const other: SessionGrant = (await t.post('/api/session', { code }, noBearer)).json.value;
    const url = signedPath(other, '/media/a.png', signedUrlExpiry(Date.now()));
    expect((await t.get(url, noBearer)).status).toBe(200);
    // the code used again ends the session it opened, and with it its URLs
    await t.post('/api/session', { code }, noBearer);
    expect((await t.get(url, noBearer)).status).toBe(401);
  });
});

function set(params: URLSearchParams, name: string, value: string): string {
  const copy = new URLSearchParams(params);
  copy.set(name, value);
  return copy.toString();
}

describe('web host: guards', () => {
  it('answers 421 to any Host but 127.0.0.1:P or localhost:P (DNS rebinding)', async () => {
    const t = await startTestHost();
    for (const host of ['evil.example', `evil.example:${t.port}`, '127.0.0.1', `127.0.0.1:1`]) {
      const reply = await t.get('/', { host });
      expect(reply.status, host).toBe(421);
      expect(reply.json).toEqual(forbidden);
      expect((await t.call('app', 'info', {}, { host })).status).toBe(421);
    }
    expect((await t.get('/', { host: `localhost:${t.port}` })).status).toBe(200);
    expect((await t.get('/', { host: `LOCALHOST:${t.port}` })).status).toBe(200);
  });

  it('refuses a foreign Origin with 403 and accepts its own', async () => {
    const t = await startTestHost();
    for (const origin of ['http://evil.example', 'null', `https://127.0.0.1:${t.port}`]) {
      const reply = await t.call('app', 'info', {}, { origin });
      expect(reply.status, origin).toBe(403);
      expect(reply.json).toEqual(forbidden);
      expect((await t.get('/', { origin })).status).toBe(403);
    }
    for (const origin of [`http://127.0.0.1:${t.port}`, `http://localhost:${t.port}`]) {
      expect((await t.call('app', 'info', {}, { origin })).status).toBe(200);
    }
  });

  it('refuses calls and the event stream unless Sec-Fetch-Site is absent or same-origin', async () => {
    const t = await startTestHost();
    for (const site of ['cross-site', 'same-site', 'none']) {
      const headers = { 'sec-fetch-site': site };
      expect((await t.call('app', 'info', {}, headers)).status, site).toBe(403);
      expect((await t.get('/api/events', headers)).status, site).toBe(403);
    }
    expect((await t.call('app', 'info', {}, { 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    // a page opened from a terminal or a bookmark says `none`: that is how the person arrives
    expect((await t.get('/', { 'sec-fetch-site': 'none' })).status).toBe(200);
  });

  it('puts the CSP, Referrer-Policy and nosniff on every response, refusals included', async () => {
    const t = await startTestHost();
    const replies = [
      await t.get('/'),
      await t.get('/assets/app.js'),
      await t.get('/media/a.png', { authorization: '' }),
      await t.get('/', { host: 'evil.example' }),
      await t.call('app', 'info', {}),
      await t.call('nope', 'nope', {}),
      await t.get('/media/missing.png'),
    ];
    for (const reply of replies) {
      expect(reply.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(reply.headers['referrer-policy']).toBe('no-referrer');
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});

describe('web host: listening', () => {
  it('listens on 127.0.0.1, and says so when the port asked for is taken', async () => {
    const t = await startTestHost();
    expect(t.host.url).toBe(`http://127.0.0.1:${t.port}/`);
    await expect(startTestHost({ port: t.port })).rejects.toThrow(
      `Port ${t.port} is in use: choose another, or 0 for a free one.`,
    );
  });
});
