import { describe, expect, it } from 'vitest';
import { isTrustedRendererUrl, rendererDevUrl } from '../../../main/electron/trusted-url.ts';

const DEV = 'http://localhost:5173/';

describe('isTrustedRendererUrl', () => {
  it.each([
    ['atelier://app/index.html', null, true],
    ['atelier://app/assets/index-abc.js', null, true],
    ['atelier://app/', null, true],
    ['atelier://app/index.html?x=1#top', null, true],
    ['atelier://media/a.png', null, false], // the media host serves files, it is not a page
    ['atelier://thumbs/a.png', null, false],
    ['atelier://app.evil/index.html', null, false],
    ['atelier://x@app/index.html', null, false],
    ['atelier://app:8080/index.html', null, false],
    ['https://app/index.html', null, false],
    ['file:///app/index.html', null, false],
    ['https://evil.example/', null, false],
    ['about:blank', null, false],
    ['not a url', null, false],
    ['', null, false],
    // the dev server only when one is given
    ['http://localhost:5173/', null, false],
    ['http://localhost:5173/', DEV, true],
    ['http://localhost:5173/src/main.tsx', DEV, true],
    ['http://localhost:5174/', DEV, false],
    ['https://localhost:5173/', DEV, false],
    ['http://127.0.0.1:5173/', DEV, false],
    ['http://user@localhost:5173/', DEV, false],
    ['atelier://app/index.html', DEV, true],
    ['https://evil.example/', 'not a url', false],
    ['javascript:alert(1)', 'javascript:alert(1)', false], // a dev URL must be http(s)
  ])('%s (dev server %s) → %s', (url, devUrl, trusted) => {
    expect(isTrustedRendererUrl(url, { devUrl })).toBe(trusted);
  });
});

describe('rendererDevUrl', () => {
  it('is electron-vite’s dev server while not packaged', () => {
    expect(rendererDevUrl(false, { ELECTRON_RENDERER_URL: DEV })).toBe(DEV);
    expect(rendererDevUrl(false, {})).toBeNull();
    expect(rendererDevUrl(false, { ELECTRON_RENDERER_URL: ' ' })).toBeNull();
  });

  it('is ignored once packaged: a packaged app trusts atelier://app only', () => {
    expect(rendererDevUrl(true, { ELECTRON_RENDERER_URL: DEV })).toBeNull();
  });
});
