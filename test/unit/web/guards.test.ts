import { describe, expect, it } from 'vitest';
import {
  hasDotSegment,
  isLoopbackHost,
  isOwnOrigin,
  isSameOriginFetch,
  rawPath,
} from '../../../main/web/guards.ts';

describe('guards', () => {
  it('accepts only 127.0.0.1:P and localhost:P as Host', () => {
    expect(isLoopbackHost('127.0.0.1:4000', 4000)).toBe(true);
    expect(isLoopbackHost('localhost:4000', 4000)).toBe(true);
    expect(isLoopbackHost('LocalHost:4000', 4000)).toBe(true);
    for (const host of [
      undefined,
      '',
      '127.0.0.1',
      'localhost',
      '127.0.0.1:4001',
      '[::1]:4000',
      'evil.example:4000',
      '127.0.0.1.evil.example:4000',
      'localhost:4000.evil.example',
      '127.0.0.2:4000',
    ]) {
      expect(isLoopbackHost(host, 4000), String(host)).toBe(false);
    }
  });

  it('accepts no Origin, or our own over http', () => {
    expect(isOwnOrigin(undefined, 4000)).toBe(true);
    expect(isOwnOrigin('http://127.0.0.1:4000', 4000)).toBe(true);
    expect(isOwnOrigin('http://localhost:4000', 4000)).toBe(true);
    for (const origin of [
      'null',
      '',
      'https://127.0.0.1:4000',
      'http://127.0.0.1:4001',
      'http://127.0.0.1:4000/',
      'http://evil.example',
      'http://localhost:4000.evil.example',
    ]) {
      expect(isOwnOrigin(origin, 4000), origin).toBe(false);
    }
  });

  it('accepts Sec-Fetch-Site absent or same-origin only', () => {
    expect(isSameOriginFetch(undefined)).toBe(true);
    expect(isSameOriginFetch('same-origin')).toBe(true);
    for (const site of ['same-site', 'cross-site', 'none', '']) {
      expect(isSameOriginFetch(site), site).toBe(false);
    }
  });

  it('finds dot segments, plain or encoded', () => {
    for (const path of ['/..', '/a/../b', '/./a', '/a/%2e%2E/b', '/%2e/a', '/a/.%2e', '/a/..']) {
      expect(hasDotSegment(path), path).toBe(true);
    }
    for (const path of ['/', '/a.png', '/a/..b', '/a/b..', '/.../x', '/%2e%2e%2fx']) {
      expect(hasDotSegment(path), path).toBe(false);
    }
  });

  it('reads the path as written: no query, no scheme or host, still encoded', () => {
    const env = (url: string) => ({ incoming: { url } }) as never;
    const c = (incoming: string | undefined, url = 'http://127.0.0.1:1/x') => ({
      env: incoming === undefined ? (undefined as never) : env(incoming),
      req: { url },
    });
    expect(rawPath(c('/media/../a.png?token=t'))).toBe('/media/../a.png');
    expect(rawPath(c('/a%2fb#frag'))).toBe('/a%2fb');
    expect(rawPath(c('http://127.0.0.1:1/media/a.png?x'))).toBe('/media/a.png');
    expect(rawPath(c(undefined, 'http://127.0.0.1:1/a%20b?token=x'))).toBe('/a%20b');
    expect(rawPath(c(undefined, 'http://127.0.0.1:1'))).toBe('/');
  });
});
