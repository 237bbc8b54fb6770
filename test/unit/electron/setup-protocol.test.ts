import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { protocol, resetElectronMock } from '../../support/electron-mock.ts';
import { makeImage } from '../../support/library-fixtures.ts';
import {
  atelierProtocolHandler,
  registerSchemes,
  setupProtocol,
} from '../../../main/electron/setup-protocol.ts';
import { CONTENT_SECURITY_POLICY } from '../../../main/electron/setup-security.ts';

vi.mock('electron', () => import('../../support/electron-mock.ts'));

// root/renderer: the built UI; root/library: images; root/secret.png and root/secret.txt
// are outside both, where traversal would lead.
let root: string;
let handle: (request: Request) => Promise<Response>;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'atelier-protocol-'));
  const renderer = join(root, 'renderer');
  const library = join(root, 'library');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  mkdirSync(join(library, 'batch', '.thumbs'), { recursive: true });
  mkdirSync(join(root, 'outside'));
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Atelier</title>');
  writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(library, 'batch', 'cat 1.png'), 'PNG-CAT');
  writeFileSync(join(library, 'batch', '.thumbs', 'cat 1.png.webp'), 'WEBP-THUMB');
  writeFileSync(join(root, 'secret.png'), 'SECRET-PNG');
  writeFileSync(join(root, 'secret.txt'), 'SECRET-TXT');
  writeFileSync(join(root, 'outside', 'x.png'), 'SECRET-DIR');
  symlinkSync(join(root, 'secret.png'), join(library, 'batch', 'link.png'));
  symlinkSync(join(root, 'outside'), join(library, 'linked-dir'));
  symlinkSync(join(root, 'secret.txt'), join(renderer, 'leak.txt'));
  symlinkSync(join(root, 'outside'), join(renderer, 'linked'));
  handle = atelierProtocolHandler({ rendererDir: renderer, libraryDir: () => library });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function get(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; body: string; headers: Headers }> {
  const response = await handle(new Request(url, init));
  return { status: response.status, body: await response.text(), headers: response.headers };
}

describe('atelier://app', () => {
  it('serves the renderer’s files with the CSP and nosniff', async () => {
    const page = await get('atelier://app/index.html');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Atelier</title>');
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await get('atelier://app/assets/app.js')).body).toBe('console.log(1)');
  });

  it('serves thumbnail bundles on its own origin (the renderer’s CSP allows only that)', async () => {
    const paths = [
      'batch/cat%201.png',
      'batch/link.png',
      'linked-dir/x.png',
      'batch%252Fcat%201.png',
      'batch/.thumbs/cat%201.png.webp',
      '%2e%2e/secret.png',
      'batch/cat%201.png',
    ];
    const bundle = await get(
      `atelier://app/thumb-bundle?${paths.map((p) => `p=${encodeURIComponent(p)}`).join('&')}`,
    );
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('x-thumbnail-sizes')).toBe('10,-,-,-,-,-,10');
    expect(bundle.body).toBe('WEBP-THUMBWEBP-THUMB');
    const none = await get('atelier://app/thumb-bundle');
    expect(none.status).toBe(400);
    expect(none.body).toBe('Ask for 1 to 100 thumbnails: ?p=<path>.');
  });

  it('serves the index page for /', async () => {
    expect((await get('atelier://app/')).body).toContain('<title>Atelier</title>');
  });

  it.each([
    'atelier://app/..%2fsecret.txt',
    'atelier://app/%2e%2e%2fsecret.txt',
    'atelier://app/%2e%2e/secret.txt',
    'atelier://app/assets%2f..%2f..%2fsecret.txt',
    'atelier://app/%5c..%5csecret.txt',
    'atelier://app/index.html%00.js',
    'atelier://app/leak.txt', // a symlink to a file outside
    'atelier://app/linked/x.png', // through a symlinked folder
    'atelier://app/missing.js',
    'atelier://app/assets', // a folder
  ])('answers 404 for %s', async (url) => {
    const response = await get(url);
    expect(response.status).toBe(404);
    expect(response.body).not.toContain('SECRET');
  });

  it('refuses anything but GET', async () => {
    expect((await get('atelier://app/index.html', { method: 'POST', body: 'x' })).status).toBe(405);
  });
});

describe('atelier://media and atelier://thumbs', () => {
  it('serves an image and its thumbnail from the library, by their encoded names', async () => {
    const image = await get('atelier://media/batch/cat%201.png');
    expect(image).toMatchObject({ status: 200, body: 'PNG-CAT' });
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await get('atelier://thumbs/batch/cat%201.png')).body).toBe('WEBP-THUMB');
  });

  it('keeps a file only under a URL that names its image’s version', async () => {
    // the renderer asks `?v=<id>.<time>`: a path a newer image reuses is another URL
    const versioned = await get('atelier://media/batch/cat%201.png?v=26.lq2k');
    expect(versioned).toMatchObject({ status: 200, body: 'PNG-CAT' });
    expect(versioned.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    const thumb = await get('atelier://thumbs/batch/cat%201.png?v=26.lq2k');
    expect(thumb.body).toBe('WEBP-THUMB');
    expect(thumb.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    const plain = await get('atelier://media/batch/cat%201.png');
    expect(plain.headers.get('cache-control')).toBe('private, no-cache');
  });

  it.each([
    'atelier://media/..%2fsecret.png',
    'atelier://media/%2e%2e%2fsecret.png',
    'atelier://media/batch/%2e%2e/%2e%2e/secret.png',
    'atelier://media/batch%2fcat%201.png', // an encoded separator, even inside
    'atelier://media/%5c..%5csecret.png',
    'atelier://media/batch/link.png', // a symlink to a file outside
    'atelier://media/linked-dir/x.png', // through a symlinked folder
    'atelier://media/batch/.thumbs/cat%201.png.webp', // hidden folders by name
    'atelier://media/batch/missing.png',
    'atelier://thumbs/batch/link.png',
  ])('answers 404 for %s', async (url) => {
    const response = await get(url);
    expect(response.status).toBe(404);
    expect(response.body).not.toContain('SECRET');
  });

  it("serves a video's poster as its thumbnail, and 404 for a video without one", async () => {
    const batch = join(root, 'library', 'batch');
    writeFileSync(join(batch, 'clip.mp4'), 'MP4-CLIP');
    writeFileSync(join(batch, 'old.mp4'), 'MP4-OLD');
    writeFileSync(join(batch, '.thumbs', 'clip.mp4.webp'), 'WEBP-POSTER');
    const poster = await get('atelier://thumbs/batch/clip.mp4');
    expect(poster).toMatchObject({ status: 200, body: 'WEBP-POSTER' });
    expect(poster.headers.get('content-type')).toBe('image/webp');
    // (no poster is made of a video on view: the renderer shows the video itself)
    expect((await get('atelier://thumbs/batch/old.mp4')).status).toBe(404);
    expect(existsSync(join(batch, '.thumbs', 'old.mp4.webp'))).toBe(false);
  });

  it('makes a missing thumbnail on first view, and serves the image when it cannot', async () => {
    const batch = join(root, 'library', 'batch');
    writeFileSync(join(batch, 'owl.png'), await makeImage('png', 512, 512));
    const made = await get('atelier://thumbs/batch/owl.png');
    expect(made.status).toBe(200);
    expect(made.headers.get('content-type')).toBe('image/webp');
    expect(existsSync(join(batch, '.thumbs', 'owl.png.webp'))).toBe(true);
    writeFileSync(join(batch, 'damaged.png'), 'PNG-DAMAGED');
    const standIn = await get('atelier://thumbs/batch/damaged.png?v=3.x');
    expect(standIn).toMatchObject({ status: 200, body: 'PNG-DAMAGED' });
    // the image standing in for its thumbnail: asked again, the thumbnail may come
    expect(standIn.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('serves from the library folder of the moment', async () => {
    const other = mkdtempSync(join(tmpdir(), 'atelier-library-'));
    writeFileSync(join(other, 'new.png'), 'NEW');
    let library = join(root, 'library');
    const moving = atelierProtocolHandler({ rendererDir: root, libraryDir: () => library });
    expect((await moving(new Request('atelier://media/new.png'))).status).toBe(404);
    library = other;
    expect(await (await moving(new Request('atelier://media/new.png'))).text()).toBe('NEW');
    rmSync(other, { recursive: true, force: true });
  });
});

describe('other hosts', () => {
  it.each(['atelier://files/secret.txt', 'atelier://APP.evil/index.html', 'atelier://x/'])(
    'answer 404: %s',
    async (url) => {
      expect((await get(url)).status).toBe(404);
    },
  );
});

describe('registration', () => {
  beforeEach(() => resetElectronMock());

  it('registers atelier: as a standard, secure, fetchable, streaming scheme', () => {
    registerSchemes();
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      {
        scheme: 'atelier',
        privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true },
      },
    ]);
  });

  it('handles atelier: and answers 500, not a crash, when reading fails', async () => {
    const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    setupProtocol({
      rendererDir: join(root, 'renderer'),
      libraryDir: () => {
        throw new Error('settings unreadable');
      },
      logger,
    });
    const handler = protocol.handlers.get('atelier')!;
    expect((await handler(new Request('atelier://app/index.html'))).status).toBe(200);
    expect((await handler(new Request('atelier://media/a.png'))).status).toBe(500);
    expect(logger.error).toHaveBeenCalled();
  });
});

describe('byte ranges, so videos seek', () => {
  it('answers a Range with 206 and the Content-Range (Electron’s net.fetch of a file ignores it)', async () => {
    const clip = Buffer.from('0123456789abcdefghij');
    writeFileSync(join(root, 'library', 'batch', 'seek.mp4'), clip);
    const whole = await get('atelier://media/batch/seek.mp4');
    expect(whole).toMatchObject({ status: 200, body: clip.toString() });
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const seek = await get('atelier://media/batch/seek.mp4', { headers: { range: 'bytes=10-' } });
    expect(seek).toMatchObject({ status: 206, body: 'abcdefghij' });
    expect(seek.headers.get('content-range')).toBe('bytes 10-19/20');
    expect(seek.headers.get('content-type')).toBe('video/mp4');
    expect(seek.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
