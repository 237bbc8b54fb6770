import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../main/web/static.ts';
import { APP_INFO } from '../../support/fake-served-app.ts';
import { INDEX_HTML, startTestHost, TOKEN } from './harness.ts';

const unauthorized = { ok: false, error: { code: 'unauthorized', message: expect.any(String) } };
const forbidden = { ok: false, error: { code: 'forbidden', message: expect.any(String) } };

describe('web host: token and cookie', () => {
  it('refuses every request without the cookie, or with a wrong one', async () => {
    const t = await startTestHost();
    for (const cookie of ['', `atelier-${t.port}=wrong`, `atelier-${t.port + 1}=${TOKEN}`]) {
      const page = await t.get('/', { cookie });
      expect(page.status).toBe(401);
      expect(page.json).toEqual(unauthorized);
      const call = await t.call('app', 'info', {}, { cookie });
      expect(call.status).toBe(401);
      expect(call.json).toEqual(unauthorized);
      expect((await t.get('/api/events', { cookie })).status).toBe(401);
      expect((await t.get('/media/a.png', { cookie })).status).toBe(401);
    }
  });

  it('trades the token in the address for an HttpOnly cookie, then redirects without it', async () => {
    const t = await startTestHost();
    const base = `http://127.0.0.1:${t.port}`;
    const wrong = await request(`${base}/?token=nope`);
    expect(wrong.statusCode).toBe(401);
    expect(await wrong.body.json()).toEqual(unauthorized);

    const traded = await request(`${base}/?view=gallery&token=${TOKEN}`);
    await traded.body.dump();
    expect(traded.statusCode).toBe(303);
    expect(traded.headers.location).toBe('/?view=gallery');
    const setCookie = String(traded.headers['set-cookie']);
    expect(setCookie).toMatch(new RegExp(`^atelier-${t.port}=${TOKEN};`));
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).toMatch(/; Path=\//);

    const cookie = setCookie.split(';', 1)[0]!;
    const page = await request(`${base}/?view=gallery`, { headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(await page.body.text()).toBe(INDEX_HTML);
    const info = await t.call('app', 'info', {}, { cookie });
    expect(info.json).toEqual({ ok: true, value: APP_INFO });
    // the token never reaches a log line, the refused one included
    expect(t.log.join('\n')).not.toContain(TOKEN);
    expect(t.log.join('\n')).not.toContain('nope');
  });
});

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
      await t.get('/', { cookie: '' }),
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
