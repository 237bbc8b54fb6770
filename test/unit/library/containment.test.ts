import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  containment,
  OutsideLibraryError,
  realPathInside,
  realPathOf,
  realPathOfNew,
} from '../../../main/core/library/containment.ts';

let root: string;
let library: string;
let outside: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'atelier-contain-')));
  library = join(root, 'library');
  outside = join(root, 'outside');
  mkdirSync(join(library, 'batch', '.thumbs'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(library, 'batch', 'a.png'), 'a');
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  symlinkSync(join(outside, 'secret.txt'), join(library, 'batch', 'file-out.png'));
  symlinkSync(outside, join(library, 'folder-out'));
  symlinkSync(join(outside, 'not-yet'), join(library, 'dangling-out'));
  symlinkSync(join(library, 'batch', 'a.png'), join(library, 'batch', 'file-in.png'));
  symlinkSync('../batch', join(library, 'batch', 'relative-in'));
  symlinkSync(join(library, 'loop-b'), join(library, 'loop-a'));
  symlinkSync(join(library, 'loop-a'), join(library, 'loop-b'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('realPathOf', () => {
  it('resolves every link on the way, and appends what is not on disk yet', async () => {
    expect(await realPathOf(join(library, 'batch', 'a.png'))).toBe(join(library, 'batch', 'a.png'));
    expect(await realPathOf(join(library, 'batch', 'new', 'b.png'))).toBe(
      join(library, 'batch', 'new', 'b.png'),
    );
    expect(await realPathOf(join(library, 'folder-out', 'x', 'y.png'))).toBe(
      join(outside, 'x', 'y.png'),
    );
    // a dangling link is followed to where a file written through it would land
    expect(await realPathOf(join(library, 'dangling-out', 'z.webp'))).toBe(
      join(outside, 'not-yet', 'z.webp'),
    );
    expect(await realPathOf(join(library, 'loop-a', 'x.png'))).toBeNull();
  });
});

describe('realPathOfNew', () => {
  it('answers as realPathOf does, whatever is at the name or on its way', async () => {
    const paths = [
      'batch/a.png',
      'batch/new.png',
      'batch/new/b.png',
      'batch/file-out.png',
      'batch/file-in.png',
      'batch/relative-in/a.png',
      'batch/a.png/under-a-file.png',
      'folder-out/x/y.png',
      'dangling-out',
      'dangling-out/z.webp',
      'loop-a',
      'loop-a/x.png',
      'missing/deeper/c.png',
    ].map((rel) => join(library, rel));
    for (const path of paths) expect(await realPathOfNew(path), path).toBe(await realPathOf(path));
  });
});

describe('containment: the one rule, by real path', () => {
  const root = () => realpathSync(library);

  it.each([
    ['a file', 'batch/a.png'],
    ['a file not written yet', 'batch/.thumbs/new.png.webp'],
    ['a link to a file inside', 'batch/file-in.png'],
    ['a relative link to a folder inside', 'batch/relative-in/a.png'],
  ])('accepts %s', async (_, rel) => {
    expect((await containment(root(), join(library, rel))).inside).toBe(true);
  });

  it.each([
    ['a link to a file outside', 'batch/file-out.png', 'secret.txt'],
    ['a file under a folder linked outside', 'folder-out/secret.txt', 'secret.txt'],
    ['a new file under a folder linked outside', 'folder-out/new.webp', 'new.webp'],
    ['a new file under a dangling link outside', 'dangling-out/new.webp', 'not-yet/new.webp'],
  ])('refuses %s, saying where it leads', async (_, rel, where) => {
    expect(await containment(root(), join(library, rel))).toEqual({
      inside: false,
      real: join(outside, where),
    });
  });

  it('refuses the library itself, a text escape, a link loop, and a missing root', async () => {
    expect((await containment(root(), library)).inside).toBe(false);
    expect((await containment(root(), join(library, '..', 'outside', 'x'))).inside).toBe(false);
    expect(await containment(root(), join(library, 'loop-a', 'x'))).toEqual({
      inside: false,
      real: null,
    });
    expect((await containment(null, join(library, 'batch', 'a.png'))).inside).toBe(false);
  });

  it('throws an error that names the file, where it leads and why', async () => {
    const path = join(library, 'batch', 'file-out.png');
    const refused = realPathInside(library, path, 'trash');
    await expect(refused).rejects.toBeInstanceOf(OutsideLibraryError);
    await expect(refused).rejects.toThrow(
      `Refusing to trash ${path}: a link on its way leads outside the library (${library}), ` +
        `to ${join(outside, 'secret.txt')}.`,
    );
    expect(await realPathInside(library, join(library, 'batch', 'file-in.png'), 'read')).toBe(
      join(library, 'batch', 'a.png'),
    );
  });
});
