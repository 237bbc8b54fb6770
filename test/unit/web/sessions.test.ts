import { describe, expect, it } from 'vitest';
import { accessOf, bearerToken } from '../../../main/web/auth.ts';
import { CODE_LIFETIME_MS, Sessions } from '../../../main/web/sessions.ts';
import { checkSignedUrl, signedPath } from '../../../main/web/signed-url.ts';
import { UrlSigner } from '../../../renderer/src/api/url-signer.ts';
import { codeInFragment, addressWithCode } from '../../../shared/api/session.ts';
import { signedUrlExpiry, SIGNED_URL_WINDOW_S } from '../../../shared/api/signed-url.ts';

function clock(start = Date.parse('2026-12-01T10:00:00Z')) {
  const c = { now: start, tick: (ms: number) => (c.now += ms) };
  return c;
}

describe('one-time codes and sessions', () => {
  it('trade a code once, within a minute, for a session of 256-bit secrets', () => {
    const c = clock();
    const sessions = new Sessions({ now: () => c.now });
    const { code, expiresAt } = sessions.mintCode();
    expect(code).toMatch(/^[\w-]{43}$/);
    expect(expiresAt).toBe(c.now + CODE_LIFETIME_MS);
    const opened = sessions.exchange(code);
    if (!opened.ok) throw new Error(opened.reason);
    expect(opened.session.token).toMatch(/^[\w-]{43}$/);
    expect(opened.session.mediaKey).toMatch(/^[\w-]{43}$/);
    expect(new Set([code, opened.session.token, opened.session.mediaKey]).size).toBe(3);
    expect(sessions.byToken(opened.session.token)).toBe(opened.session);
    expect(sessions.byId(opened.session.sessionId)).toBe(opened.session);
    expect(sessions.byToken(opened.session.mediaKey)).toBeUndefined();
  });

  it('end the session a code opened when the code comes again', () => {
    const sessions = new Sessions();
    const { code } = sessions.mintCode();
    const first = sessions.exchange(code);
    const other = sessions.exchange(sessions.mintCode().code);
    expect(sessions.exchange(code)).toEqual({ ok: false, reason: 'reused' });
    expect(first.ok && sessions.byToken(first.session.token)).toBeUndefined();
    expect(other.ok && sessions.byToken(other.session.token)).toBe(other.ok && other.session);
    expect(sessions.exchange(code)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('refuse a code from its 60th second on, and one never given', () => {
    const c = clock();
    const sessions = new Sessions({ now: () => c.now });
    const late = sessions.mintCode().code;
    const justInTime = sessions.mintCode().code;
    c.tick(CODE_LIFETIME_MS - 1);
    expect(sessions.exchange(justInTime).ok).toBe(true);
    c.tick(1);
    expect(sessions.exchange(late)).toEqual({ ok: false, reason: 'expired' });
    expect(sessions.exchange('never-given-0123456789')).toEqual({ ok: false, reason: 'unknown' });
    // long after, forgotten: no memory is kept for old codes
    c.tick(60 * 60_000);
    expect(sessions.exchange(late)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('keep at most a few hundred codes however many are asked for', () => {
    const sessions = new Sessions();
    const first = sessions.mintCode().code;
    for (let i = 0; i < 1000; i++) sessions.mintCode();
    expect(sessions.exchange(first)).toEqual({ ok: false, reason: 'unknown' });
    expect(sessions.exchange(sessions.mintCode().code).ok).toBe(true);
  });
});

describe('what a request needs', () => {
  it('the page and the exchange are public, media take a signature, the rest a bearer', () => {
    const table: Array<[string, string, ReturnType<typeof accessOf>]> = [
      ['GET', '/', 'public'],
      ['HEAD', '/', 'public'],
      ['GET', '/index.html', 'public'],
      ['GET', '/assets/index-abc.js', 'public'],
      ['POST', '/api/session', 'public'],
      ['POST', '/api/session/code', 'bearer'],
      ['GET', '/api/session', 'bearer'],
      ['POST', '/', 'bearer'],
      ['GET', '/media/a.png', 'signed-or-bearer'],
      ['HEAD', '/thumbs/a.png', 'signed-or-bearer'],
      ['GET', '/exports/x.zip', 'signed-or-bearer'],
      ['POST', '/media/a.png', 'bearer'],
      ['GET', '/thumb-bundle', 'bearer'],
      ['GET', '/api/events', 'bearer'],
      ['POST', '/api/app/info', 'bearer'],
      ['GET', '/gallery', 'bearer'],
      ['GET', '//assets/x.js', 'bearer'],
      ['GET', '/ASSETS/x.js', 'bearer'],
    ];
    for (const [method, path, access] of table) {
      expect(accessOf(method, path), `${method} ${path}`).toBe(access);
    }
  });

  it('reads a Bearer token, and nothing else', () => {
    expect(bearerToken('Bearer abcdefghijklmnop_-0123')).toBe('abcdefghijklmnop_-0123');
    expect(bearerToken('bearer  abcdefghijklmnop')).toBe('abcdefghijklmnop');
    for (const header of [undefined, '', 'Bearer', 'Bearer short', 'Basic abcdefghijklmnop']) {
      expect(bearerToken(header)).toBeNull();
    }
    expect(bearerToken('Bearer abcdefghijklmnop, Bearer other')).toBeNull();
  });
});

describe('signed URLs', () => {
  it('are minted per hour and valid one hour more, so an hour’s URLs of an image are one', () => {
    const at = Date.parse('2026-12-01T10:59:59Z');
    expect(signedUrlExpiry(at)).toBe(Date.parse('2026-12-01T12:00:00Z') / 1000);
    expect(signedUrlExpiry(at + 1000)).toBe(Date.parse('2026-12-01T13:00:00Z') / 1000);
    expect(signedUrlExpiry(at - 59 * 60_000)).toBe(signedUrlExpiry(at));
    expect(SIGNED_URL_WINDOW_S).toBe(3600);
  });

  it('open the path they sign, for the session that signed, until they expire', () => {
    const c = clock();
    const sessions = new Sessions({ now: () => c.now });
    const opened = sessions.exchange(sessions.mintCode().code);
    if (!opened.ok) throw new Error(opened.reason);
    const exp = signedUrlExpiry(c.now);
    const url = new URL(signedPath(opened.session, '/media/a%20b.png', exp, '3.x'), 'http://h');
    const check = (path: string, at = c.now) =>
      checkSignedUrl(sessions, path, (n) => url.searchParams.get(n) ?? undefined, at);
    expect(url.searchParams.get('v')).toBe('3.x');
    expect(check('/media/a%20b.png')).toEqual({ ok: true, expires: exp });
    // the raw path is signed: the same file written otherwise is another URL
    expect(check('/media/a b.png')).toEqual({ ok: false, why: 'its signature is wrong' });
    expect(check('/media/a%20B.png').ok).toBe(false);
    expect(check('/media/a%20b.png', exp * 1000)).toEqual({ ok: false, why: 'expired' });
    expect(check('/media/a%20b.png', exp * 1000 - 1).ok).toBe(true);
    sessions.end(opened.session.sessionId);
    expect(check('/media/a%20b.png')).toEqual({ ok: false, why: 'its session has ended' });
  });
});

describe('the page’s signer and the host’s check', () => {
  it('agree: what the page signs (@noble/hashes) the host accepts (node:crypto), nothing else', () => {
    const sessions = new Sessions();
    const opened = sessions.exchange(sessions.mintCode().code);
    if (!opened.ok) throw new Error(opened.reason);
    const now = Date.now();
    const signer = new UrlSigner(opened.session, () => now);
    for (const path of ['/media/a.png', '/thumbs/d%C3%A9j%C3%A0/x%20y.png', '/exports/e-1.zip']) {
      const url = new URL(signer.sign(path, '5.abc'), 'http://h');
      expect(url.pathname).toBe(path);
      const query = (n: string) => url.searchParams.get(n) ?? undefined;
      expect(checkSignedUrl(sessions, path, query, now).ok, path).toBe(true);
      expect(checkSignedUrl(sessions, `${path}x`, query, now).ok).toBe(false);
    }
    // a signer holding another key signs nothing the host accepts
    const forged = new UrlSigner({ ...opened.session, mediaKey: 'A'.repeat(43) }, () => now);
    const url = new URL(forged.sign('/media/a.png'), 'http://h');
    const query = (n: string) => url.searchParams.get(n) ?? undefined;
    expect(checkSignedUrl(sessions, '/media/a.png', query, now).ok).toBe(false);
  });
});

describe('the code in an address', () => {
  it('is read from the fragment, alone or after a screen, and taken out of it', () => {
    expect(codeInFragment('#code=abc')).toEqual({ code: 'abc', rest: '' });
    expect(codeInFragment('#/gallery?code=abc')).toEqual({ code: 'abc', rest: '#/gallery' });
    expect(codeInFragment('#/gallery?x=1&code=abc')).toEqual({
      code: 'abc',
      rest: '#/gallery?x=1',
    });
    expect(codeInFragment('#/queue')).toEqual({ code: null, rest: '#/queue' });
    expect(codeInFragment('')).toEqual({ code: null, rest: '' });
    expect(codeInFragment('#code=')).toEqual({ code: null, rest: '' });
  });

  it('round-trips through the address a host gives', () => {
    const address = addressWithCode('http://127.0.0.1:9', 'a-b_c', '/gallery');
    expect(address).toBe('http://127.0.0.1:9/#/gallery?code=a-b_c');
    expect(codeInFragment(new URL(address).hash)).toEqual({ code: 'a-b_c', rest: '#/gallery' });
    expect(addressWithCode('http://127.0.0.1:9', 'c')).toBe('http://127.0.0.1:9/#code=c');
  });
});
