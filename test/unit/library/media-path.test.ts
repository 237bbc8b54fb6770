import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  decodeSegments,
  resolveMediaPath,
  resolveThumbnailSource,
} from '../../../main/core/library/media-path.ts';

let root: string;
let library: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'atelier-media-')));
  library = join(root, 'library');
  mkdirSync(join(library, 'batch one', '.thumbs'), { recursive: true });
  writeFileSync(join(library, 'batch one', 'a fox.png'), 'png');
  writeFileSync(join(library, 'batch one', '.thumbs', 'a fox.png.webp'), 'webp');
  writeFileSync(join(library, 'batch one', 'notes.txt'), 'text');
  mkdirSync(join(library, '.atelier-unrecorded'));
  writeFileSync(join(library, '.atelier-unrecorded', 'x.png'), 'secret answer');
  writeFileSync(join(root, 'outside.png'), 'outside');
  mkdirSync(join(root, 'elsewhere'));
  writeFileSync(join(root, 'elsewhere', 'b.png'), 'elsewhere');
  symlinkSync(join(root, 'outside.png'), join(library, 'batch one', 'link-out.png'));
  symlinkSync(join(root, 'elsewhere'), join(library, 'folder-out'));
  symlinkSync(join(library, 'batch one', 'a fox.png'), join(library, 'batch one', 'link-in.png'));
  mkdirSync(join(library, 'dir.png'));
});

describe('resolveThumbnailSource', () => {
  it('gives the thumbnail, else the image to make one of, else nothing; inside only', async () => {
    writeFileSync(join(library, 'batch one', 'no thumb.png'), 'png');
    expect(await resolveThumbnailSource(library, 'batch%20one/a%20fox.png')).toEqual({
      thumbnail: join(library, 'batch one', '.thumbs', 'a fox.png.webp'),
    });
    expect(await resolveThumbnailSource(library, 'batch%20one/no%20thumb.png')).toEqual({
      image: join(library, 'batch one', 'no thumb.png'),
    });
    for (const raw of ['batch%20one/missing.png', 'batch%20one/link-out.png', '../outside.png']) {
      expect(await resolveThumbnailSource(library, raw), raw).toBeNull();
    }
  });
});

describe('resolveMediaPath', () => {
  it('serves a library image by its encoded relative path', async () => {
    expect(await resolveMediaPath(library, 'batch%20one/a%20fox.png', 'image')).toBe(
      join(library, 'batch one', 'a fox.png'),
    );
    expect(await resolveMediaPath(library, '/batch%20one/a%20fox.png', 'image')).toBe(
      join(library, 'batch one', 'a fox.png'),
    );
  });

  it('serves the thumbnail of an image from its .thumbs folder', async () => {
    expect(await resolveMediaPath(library, 'batch%20one/a%20fox.png', 'thumb')).toBe(
      join(library, 'batch one', '.thumbs', 'a fox.png.webp'),
    );
  });

  it('follows a symlink that stays inside the library', async () => {
    expect(await resolveMediaPath(library, 'batch%20one/link-in.png', 'image')).toBe(
      join(library, 'batch one', 'a fox.png'),
    );
  });

  it.each([
    ['a parent step', '../outside.png'],
    ['an encoded parent step', '%2e%2e/outside.png'],
    ['an encoded parent step and slash', '%2e%2e%2foutside.png'],
    ['a double-encoded parent step', '%252e%252e/outside.png'],
    ['an encoded backslash', '..%5coutside.png'],
    ['a backslash', '..\\outside.png'],
    ['an encoded NUL', 'batch%20one/a%20fox.png%00.png'],
    ['an absolute path', `${root}/outside.png`.replace(/^\//, '/%2F')],
    ['a drive letter', 'C:/Windows/x.png'],
    ['a file symlinked out', 'batch%20one/link-out.png'],
    ['a folder symlinked out', 'folder-out/b.png'],
    ['a hidden folder', '.atelier-unrecorded/x.png'],
    ['a file that is not media', 'batch%20one/notes.txt'],
    ['a folder named like an image', 'dir.png'],
    ['a missing file', 'batch%20one/none.png'],
    ['a malformed escape', 'batch%20one/a%E0%A4%A.png'],
    ['an empty path', ''],
    ['an empty segment', 'batch%20one//a%20fox.png'],
  ])('refuses %s', async (_what, raw) => {
    expect(await resolveMediaPath(library, raw, 'image')).toBeNull();
    expect(await resolveMediaPath(library, raw, 'thumb')).toBeNull();
  });
});

describe('decodeSegments', () => {
  it('decodes each segment on its own', () => {
    expect(decodeSegments('a%20b/c%23d.png')).toEqual(['a b', 'c#d.png']);
  });
  it('refuses control characters', () => {
    expect(decodeSegments('a/b%0a.png')).toBeNull();
  });
});
