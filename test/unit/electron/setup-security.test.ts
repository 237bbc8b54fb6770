import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  app,
  FakeWebContents,
  resetElectronMock,
  session,
  shell,
} from '../../support/electron-mock.ts';
import {
  CONTENT_SECURITY_POLICY,
  openExternalHttps,
  setupSecurity,
  withCsp,
} from '../../../main/electron/setup-security.ts';

vi.mock('electron', () => import('../../support/electron-mock.ts'));

/** A web contents created after setupSecurity, as Electron announces each one. */
function created(url = 'atelier://app/index.html'): FakeWebContents {
  const contents = new FakeWebContents(url);
  app.emit('web-contents-created', {}, contents);
  return contents;
}

/** Emits a navigation as Electron does; true when it was prevented. */
function navigate(contents: FakeWebContents, url: string): boolean {
  const event = { url, preventDefault: vi.fn() };
  contents.emit('will-navigate', event, url);
  return event.preventDefault.mock.calls.length > 0;
}

describe('setupSecurity', () => {
  beforeEach(() => resetElectronMock());

  it('refuses navigation away from the renderer and allows its own pages', () => {
    setupSecurity();
    const contents = created();
    expect(navigate(contents, 'https://evil.example/')).toBe(true);
    expect(navigate(contents, 'file:///etc/passwd')).toBe(true);
    expect(navigate(contents, 'atelier://media/a.png')).toBe(true);
    expect(navigate(contents, 'http://localhost:5173/')).toBe(true);
    expect(navigate(contents, 'atelier://app/index.html')).toBe(false);
  });

  it('allows the dev server only when it is given', () => {
    setupSecurity({ devUrl: 'http://localhost:5173/' });
    const contents = created();
    expect(navigate(contents, 'http://localhost:5173/')).toBe(false);
    expect(navigate(contents, 'http://localhost:9999/')).toBe(true);
  });

  it('denies every new window; only https links open, in the browser', () => {
    setupSecurity();
    const contents = created();
    const open = (url: string) => contents.windowOpenHandler!({ url });
    for (const url of [
      'https://docs.example/page?q=1',
      'http://docs.example/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'atelier://app/index.html',
      'not a url',
    ]) {
      expect(open(url)).toEqual({ action: 'deny' });
    }
    expect(shell.openExternal).toHaveBeenCalledTimes(1);
    expect(shell.openExternal).toHaveBeenCalledWith('https://docs.example/page?q=1');
  });

  it('prevents <webview> from being attached', () => {
    setupSecurity();
    const contents = created();
    const event = { preventDefault: vi.fn() };
    contents.emit('will-attach-webview', event, {}, { src: 'https://evil.example/' });
    expect(event.preventDefault).toHaveBeenCalled();
  });

  it('denies every permission request and check', () => {
    setupSecurity();
    const { permissionRequestHandler, permissionCheckHandler } = session.defaultSession;
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read']) {
      const callback = vi.fn();
      permissionRequestHandler!({}, permission, callback, {});
      expect(callback).toHaveBeenCalledWith(false);
      expect(permissionCheckHandler!({}, permission, 'atelier://app', {})).toBe(false);
    }
  });

  it('puts the CSP on every response, replacing one the response had', () => {
    setupSecurity();
    const callback = vi.fn();
    session.defaultSession.headersReceived!(
      {
        url: 'http://localhost:5173/',
        responseHeaders: { 'content-security-policy': ['default-src *'], 'X-A': ['1'] },
      },
      callback,
    );
    expect(callback).toHaveBeenCalledWith({
      responseHeaders: { 'X-A': ['1'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
  });

  it('states the policy the renderer needs and nothing looser', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
        "img-src 'self' data: blob: atelier:; media-src 'self' atelier:; connect-src 'self' atelier:; " +
        "object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    );
    expect(withCsp({})).toEqual({ 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
  });

  it('is repeated by the renderer’s meta tag, less what a meta tag cannot set', () => {
    const html = readFileSync(resolve(import.meta.dirname, '../../../renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBe(CONTENT_SECURITY_POLICY.replace("; frame-ancestors 'none'", ''));
  });
});

describe('openExternalHttps', () => {
  beforeEach(() => resetElectronMock());

  it('opens https only, by its parsed form', () => {
    expect(openExternalHttps('HTTPS://Example.com/a b')).toBe(true);
    expect(shell.openExternal).toHaveBeenCalledWith('https://example.com/a%20b');
    expect(openExternalHttps('http://example.com/')).toBe(false);
    expect(openExternalHttps('https:')).toBe(false);
    expect(shell.openExternal).toHaveBeenCalledTimes(1);
  });

  it('logs a refusal without the link’s query', () => {
    const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    openExternalHttps('ftp://host/file?token=secret', logger);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(String(logger.warn.mock.calls[0]![0])).not.toContain('secret');
  });
});
