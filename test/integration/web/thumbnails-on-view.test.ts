import { existsSync } from 'node:fs';
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  thumbnailPath,
  writeThumbnail,
  writeThumbnailFromBytes,
} from '../../../main/core/library/thumbnail.ts';
import { makeImage } from '../../support/library-fixtures.ts';
import { startTestHost } from './harness.ts';

let root: string;
let libraryDir: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'atelier-web-thumbs-'));
  libraryDir = join(root, 'library');
  await mkdir(join(libraryDir, 'Batch one'), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('web host: thumbnails made on first view', () => {
  it('makes the missing thumbnail of a real image, serves it, and keeps it', async () => {
    const image = join(libraryDir, 'Batch one', '0001 a fox.png');
    await writeFile(image, await makeImage('png', 600, 400));
    // the thumbnail was there once (written with the image), then deleted
    const thumbnail = (await writeThumbnail(image, { library: libraryDir })).path;
    await unlink(thumbnail);
    const t = await startTestHost({ libraryDir });

    // the grid asks for it twice at once: both get the thumbnail
    const [first, second] = await Promise.all([
      t.get(t.signed('/thumbs/Batch%20one/0001%20a%20fox.png', { version: '1.a' }), {
        authorization: '',
      }),
      t.get(t.signed('/thumbs/Batch%20one/0001%20a%20fox.png', { version: '1.a' }), {
        authorization: '',
      }),
    ]);
    for (const reply of [first!, second!]) {
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toBe('image/webp');
      expect(reply.headers['cache-control']).toMatch(/^private, max-age=\d+, immutable$/);
      expect(await sharp(reply.body).metadata()).toMatchObject({
        format: 'webp',
        width: 256,
        height: 171,
      });
    }
    expect(existsSync(thumbnail)).toBe(true);
    expect(first!.body.equals(await readFile(thumbnail))).toBe(true);
    expect(t.log.filter((line) => line.startsWith('warn'))).toEqual([]);
  });

  it('serves the image itself, not to be cached, when no thumbnail can be made of it', async () => {
    await writeFile(join(libraryDir, 'Batch one', 'damaged.png'), 'not really a png');
    const t = await startTestHost({ libraryDir });
    const reply = await t.get(t.signed('/thumbs/Batch%20one/damaged.png', { version: '1.a' }), {
      authorization: '',
    });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('image/png');
    expect(reply.text).toBe('not really a png');
    expect(reply.headers['cache-control']).toBe('private, no-cache');
    expect(existsSync(thumbnailPath(join(libraryDir, 'Batch one', 'damaged.png')))).toBe(false);
    expect(t.log.some((line) => line.includes('could not make the thumbnail'))).toBe(true);
  });

  it("serves a video's poster as its thumbnail; a video without one is a quick 404", async () => {
    const video = join(libraryDir, 'Batch one', '0002 a fox running.mp4');
    const old = join(libraryDir, 'Batch one', '0003 written before posters.mp4');
    await writeFile(video, 'not really an mp4');
    await writeFile(old, 'not really an mp4 either');
    const poster = (
      await writeThumbnailFromBytes(await makeImage('jpeg', 720, 1280), video, {
        library: libraryDir,
      })
    ).path;
    const t = await startTestHost({ libraryDir });

    const reply = await t.get(
      t.signed('/thumbs/Batch%20one/0002%20a%20fox%20running.mp4', { version: '2.a' }),
      {
        authorization: '',
      },
    );
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('image/webp');
    expect(reply.headers['cache-control']).toMatch(/^private, max-age=\d+, immutable$/);
    expect(reply.body.equals(await readFile(poster))).toBe(true);
    expect(await sharp(reply.body).metadata()).toMatchObject({ width: 144, height: 256 });

    // no poster is made on view (the renderer shows the video itself), nor tried
    const missing = await t.get('/thumbs/Batch%20one/0003%20written%20before%20posters.mp4');
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('not-found');
    expect(existsSync(thumbnailPath(old))).toBe(false);
    expect(t.log).toEqual([]);
  });

  it('still answers 404 for an image that is not there or not inside the library', async () => {
    await writeFile(join(root, 'outside.png'), await makeImage('png'));
    const t = await startTestHost({ libraryDir });
    for (const path of ['/thumbs/Batch%20one/missing.png', '/thumbs/../outside.png']) {
      expect((await t.get(path)).status, path).toBe(404);
    }
    expect(existsSync(join(root, '.thumbs'))).toBe(false);
  });

  it('writes no thumbnail through a link: a .thumbs folder planted as a link out', async () => {
    const outside = join(root, 'outside');
    await mkdir(outside);
    await writeFile(join(libraryDir, 'Batch one', 'a fox.png'), await makeImage('png', 600, 400));
    await symlink(outside, join(libraryDir, 'Batch one', '.thumbs'));
    const t = await startTestHost({ libraryDir });
    const reply = await t.get('/thumbs/Batch%20one/a%20fox.png');
    // the image itself stands in, not to be cached; nothing was written outside
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('image/png');
    expect(reply.headers['cache-control']).toBe('private, no-cache');
    expect(await readdir(outside)).toEqual([]);
    expect(t.log.some((line) => line.includes('leads outside the library'))).toBe(true);
  });
});
