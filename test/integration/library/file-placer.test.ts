import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FilePlacer, PlaceError } from '../../../main/core/library/file-placer.ts';
import { LibraryWriteError } from '../../../main/core/library/write-error.ts';
import { writeImage } from '../../../main/core/library/write-image.ts';
import { makeImage, sampleMetadata } from '../../support/library-fixtures.ts';

let dir: string;
let placer: FilePlacer;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'atelier-placer-'));
  placer = new FilePlacer();
});
afterEach(async () => {
  await placer.close();
  await rm(dir, { recursive: true, force: true });
});

const bytesOf = (text: string) => new Uint8Array(Buffer.from(text));

describe('FilePlacer', () => {
  it('puts bytes at the target, creating its folder, and leaves no temp file', async () => {
    const folder = join(dir, 'a', 'b');
    expect(await placer.place(folder, join(folder, 'x.png'), bytesOf('hello'))).toBe(true);
    expect(await readFile(join(folder, 'x.png'), 'utf8')).toBe('hello');
    expect(await readdir(folder)).toEqual(['x.png']);
  });

  it('never replaces a file already at the target, and says so', async () => {
    await writeFile(join(dir, 'x.png'), 'theirs');
    expect(await placer.place(dir, join(dir, 'x.png'), bytesOf('ours'))).toBe(false);
    expect(await readFile(join(dir, 'x.png'), 'utf8')).toBe('theirs');
    expect(await readdir(dir)).toEqual(['x.png']);
  });

  it('reports what the disk refused, with its errno code, and leaves nothing behind', async () => {
    await writeFile(join(dir, 'file'), 'x');
    const folder = join(dir, 'file', 'sub');
    const error = await placer.place(folder, join(folder, 'x.png'), bytesOf('x')).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PlaceError);
    expect((error as PlaceError).code).toMatch(/^(ENOTDIR|EEXIST)$/);
    expect(await readdir(dir)).toEqual(['file']);
  });

  it('writes many files into one folder at once, each whole', async () => {
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        placer.place(dir, join(dir, `${i}.png`), bytesOf(`image ${i}`)),
      ),
    );
    expect(results.every(Boolean)).toBe(true);
    const names = await readdir(dir);
    expect(names).toHaveLength(300);
    for (const i of [0, 150, 299]) {
      expect(await readFile(join(dir, `${i}.png`), 'utf8')).toBe(`image ${i}`);
    }
  });

  it('close waits for the writes in flight, then refuses new ones', async () => {
    const writing = placer.place(dir, join(dir, 'x.png'), bytesOf('x'));
    await placer.close();
    expect(await writing).toBe(true);
    await expect(placer.place(dir, join(dir, 'y.png'), bytesOf('y'))).rejects.toThrow(/closed/);
  });
});

describe('writeImage through the placer', () => {
  it('writes the same file, with the same facts, as writing in process', async () => {
    const png = await makeImage('png');
    const metadata = sampleMetadata();
    const direct = await writeImage(png, join(dir, 'direct', 'x.png'), { metadata });
    const placed = await writeImage(png, join(dir, 'placed', 'x.png'), { metadata, placer });
    expect({ ...placed, path: '' }).toEqual({ ...direct, path: '' });
    expect(await readFile(placed.path)).toEqual(await readFile(direct.path));
  });

  it('finds its own file already in place (a write repeated after a crash) and keeps it', async () => {
    const png = await makeImage('png');
    const target = join(dir, 'x.png');
    const first = await writeImage(png, target, { metadata: sampleMetadata(), placer });
    const again = await writeImage(png, target, { metadata: sampleMetadata(), placer });
    expect(again).toMatchObject({ alreadyPresent: true, sha256: first.sha256 });
    expect(await readdir(dir)).toEqual(['x.png']);
  });

  it('refuses a different file at the target as target-exists, and an unwritable folder', async () => {
    const png = await makeImage('png');
    await writeFile(join(dir, 'x.png'), 'theirs');
    const taken = await writeImage(png, join(dir, 'x.png'), {
      metadata: sampleMetadata(),
      placer,
    }).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(LibraryWriteError);
    expect((taken as LibraryWriteError).kind).toBe('target-exists');
    expect(await readFile(join(dir, 'x.png'), 'utf8')).toBe('theirs');

    const blocked = await writeImage(png, join(dir, 'x.png', 'y.png'), {
      metadata: sampleMetadata(),
      placer,
    }).catch((e: unknown) => e);
    expect((blocked as LibraryWriteError).kind).toBe('unwritable');
    expect((blocked as LibraryWriteError).message).toContain('x.png');
  });

  it('checks the image before anything reaches the disk', async () => {
    const error = await writeImage(Buffer.from('not an image at all'), join(dir, 'x.png'), {
      metadata: sampleMetadata(),
      placer,
    }).catch((e: unknown) => e);
    expect((error as LibraryWriteError).kind).toBe('wrong-format');
    expect(await readdir(dir)).toEqual([]);
  });
});
