import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../main/web/static.ts';
import { APP_JS, INDEX_HTML, startTestHost } from './harness.ts';

const SECRET = 'the bytes of a file outside the library';
let root: string;
let libraryDir: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'atelier-web-media-'));
  libraryDir = join(root, 'library');
  const outside = join(root, 'outside');
  await mkdir(join(libraryDir, 'dir', '.thumbs'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(outside, 'secret.png'), SECRET);
  await writeFile(join(root, 'secret.png'), SECRET);
  await writeFile(join(libraryDir, 'a.png'), 'png bytes');
  await writeFile(join(libraryDir, 'a.txt'), 'not media');
  await writeFile(join(libraryDir, 'space name.jpg'), 'jpeg bytes');
  await writeFile(join(libraryDir, 'clip.mp4'), '0123456789');
  await writeFile(join(libraryDir, 'dir', 'x.png'), 'image x');
  await writeFile(join(libraryDir, 'dir', '.thumbs', 'x.png.webp'), 'thumb of x');
  await symlink(join(outside, 'secret.png'), join(libraryDir, 'out.png'));
  await symlink(outside, join(libraryDir, 'linkdir'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('web host: media', () => {
  it('serves library files with their type and nosniff, cached until a signed URL expires', async () => {
    const t = await startTestHost({ libraryDir });
    const signedUntil = (reply: { headers: Record<string, unknown> }) =>
      Number(
        /^private, max-age=(\d+), immutable$/.exec(String(reply.headers['cache-control']))?.[1],
      );
    const cases: Array<[string, string, string]> = [
      ['/media/a.png', 'image/png', 'png bytes'],
      ['/media/space%20name.jpg', 'image/jpeg', 'jpeg bytes'],
      ['/media/dir/x.png', 'image/png', 'image x'],
      ['/media/clip.mp4', 'video/mp4', '0123456789'],
      // the thumbnail of dir/x.png is asked for by the image's own path
      ['/thumbs/dir/x.png', 'image/webp', 'thumb of x'],
    ];
    for (const [path, type, body] of cases) {
      // an <img>'s way: a URL signed with the session's media key, no header
      const reply = await t.get(t.signed(path, { version: '7.1' }), { authorization: '' });
      expect(reply.status, path).toBe(200);
      expect(reply.headers['content-type']).toBe(type);
      expect(reply.text).toBe(body);
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      expect(signedUntil(reply)).toBeGreaterThan(3500);
      expect(signedUntil(reply)).toBeLessThanOrEqual(7200);
      // a script's way, with the bearer: no version in the URL, so asked again every time
      const fetched = await t.get(path);
      expect(fetched.text).toBe(body);
      expect(fetched.headers['cache-control']).toBe('private, no-cache');
    }
    // signed without the image's version: the path may be reused, so it is asked again
    const unversioned = await t.get(t.signed('/media/a.png'), { authorization: '' });
    expect(unversioned.headers['cache-control']).toBe('private, no-cache');
    // a video seeks with Range on its signed URL
    const part = await t.get(t.signed('/media/clip.mp4'), {
      range: 'bytes=2-5',
      authorization: '',
    });
    expect(part.status).toBe(206);
    expect(part.text).toBe('2345');
  });

  it('answers 404 to anything outside the library or not a media file', async () => {
    const t = await startTestHost({ libraryDir });
    const refused = [
      '/media/../secret.png',
      '/media/../outside/secret.png',
      '/media/dir/../../secret.png',
      '/media/%2e%2e/secret.png',
      '/media/%2E%2E/outside/secret.png',
      '/media/%2e%2e%2fsecret.png',
      '/media/dir%2fx.png',
      '/media/%5c..%5csecret.png',
      '/media/%00a.png',
      '/media//etc/passwd.png',
      '/media/out.png',
      '/media/linkdir/secret.png',
      '/thumbs/linkdir/secret.png',
      '/media/dir/.thumbs/x.png.webp',
      '/media/a.txt',
      '/media/missing.png',
      // a video without a poster has no thumbnail, and none is made (see thumbnails-on-view)
      '/thumbs/clip.mp4',
      '/media/',
      '/thumbs/../secret.png',
    ];
    for (const path of refused) {
      const reply = await t.get(path);
      expect(reply.status, path).toBe(404);
      expect(reply.json, path).toEqual({
        ok: false,
        error: { code: 'not-found', message: expect.any(String) },
      });
      expect(reply.text).not.toContain(SECRET);
    }
  });
});

describe('web host: thumbnail bundles', () => {
  const bundle = (paths: string[]) =>
    `/thumb-bundle?${paths.map((p) => `p=${encodeURIComponent(p)}`).join('&')}`;

  it('answers many thumbnails at once, in the order asked, with their sizes', async () => {
    await mkdir(join(libraryDir, '.thumbs'));
    await writeFile(join(libraryDir, '.thumbs', 'space name.jpg.webp'), 'thumb of space');
    const t = await startTestHost({ libraryDir });
    const reply = await t.get(
      bundle([
        'dir/x.png',
        'missing.png',
        'space%20name.jpg',
        // in the library, but its thumbnail is not made: asked for alone (which makes it)
        'a.png',
        '../secret.png',
        'linkdir/secret.png',
        '%2e%2e/secret.png',
        'dir%252Fx.png',
        'dir/.thumbs/x.png.webp',
        'dir/x.png',
      ]),
    );
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/octet-stream');
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.headers['x-thumbnail-sizes']).toBe('10,-,14,?,-,-,-,-,-,10');
    expect(reply.text).toBe('thumb of xthumb of spacethumb of x');
    expect(reply.text).not.toContain(SECRET);
  });

  it('refuses no paths or too many, with what to do', async () => {
    const t = await startTestHost({ libraryDir });
    for (const path of ['/thumb-bundle', bundle(Array.from({ length: 101 }, () => 'a.png'))]) {
      const reply = await t.get(path);
      expect(reply.status, path).toBe(400);
      expect(reply.json.error).toEqual({
        code: 'invalid-argument',
        message: 'Ask for 1 to 100 thumbnails: p=<path>.',
      });
    }
  });
});

describe('web host: the page', () => {
  it('serves the built renderer, and index.html for / and any other page path', async () => {
    const t = await startTestHost();
    for (const path of ['/', '/gallery', '/batches/12/jobs', '/assets/missing.js']) {
      const reply = await t.get(path);
      expect(reply.status, path).toBe(200);
      expect(reply.headers['content-type']).toMatch(/^text\/html/);
      expect(reply.headers['cache-control']).toBe('no-cache');
      expect(reply.text).toBe(INDEX_HTML);
      expect(reply.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    }
    const script = await t.get('/assets/app.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.text).toBe(APP_JS);
    expect(script.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    // API paths never fall back to the page
    expect((await t.get('/api/nothing')).json.error.code).toBe('not-found');
  });
});
