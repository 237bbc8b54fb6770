import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FilePlacer, PlaceError } from '../../../main/core/library/file-placer.ts';
import { readEmbeddedMetadataFromFile } from '../../../main/core/library/read-metadata.ts';
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

let png: Buffer;
beforeAll(async () => {
  png = await makeImage('png');
});
const finish = () => ({ metadata: sampleMetadata(), expectedFormat: 'png' as const });

describe('FilePlacer', () => {
  it('writes the finished image at the target, creating its folder, and leaves no temp file', async () => {
    const folder = join(dir, 'a', 'b');
    const target = join(folder, 'x.png');
    const placed = await placer.place(folder, target, png, finish());
    const file = await readFile(target);
    expect(placed).toMatchObject({ placed: true, bytes: file.length, sourceBytes: png.length });
    expect(placed).toMatchObject({ format: 'png', width: 48, height: 32 });
    expect(placed.sha256).toBe(createHash('sha256').update(file).digest('hex'));
    expect((await readEmbeddedMetadataFromFile(target)).metadata?.prompt).toBe(
      sampleMetadata().prompt,
    );
    expect(await readdir(folder)).toEqual(['x.png']);
  });

  it('never replaces a file already at the target, and says so', async () => {
    await writeFile(join(dir, 'x.png'), 'theirs');
    const placed = await placer.place(dir, join(dir, 'x.png'), png, finish());
    expect(placed.placed).toBe(false);
    expect(await readFile(join(dir, 'x.png'), 'utf8')).toBe('theirs');
    expect(await readdir(dir)).toEqual(['x.png']);
  });

  it('reports what the disk refused, with its errno code, and leaves nothing behind', async () => {
    await writeFile(join(dir, 'file'), 'x');
    const folder = join(dir, 'file', 'sub');
    const error = await placer.place(folder, join(folder, 'x.png'), png, finish()).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PlaceError);
    expect((error as PlaceError).code).toMatch(/^(ENOTDIR|EEXIST)$/);
    expect(await readdir(dir)).toEqual(['file']);
  });

  it('refuses a bad image before writing anything', async () => {
    const error = await placer
      .place(dir, join(dir, 'x.png'), Buffer.from('not an image'), finish())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LibraryWriteError);
    expect((error as LibraryWriteError).kind).toBe('wrong-format');
    const small = await placer
      .place(dir, join(dir, 'x.png'), png, { ...finish(), expectedSize: { width: 8, height: 8 } })
      .catch((e: unknown) => e);
    expect((small as LibraryWriteError).kind).toBe('wrong-size');
    expect(await readdir(dir)).toEqual([]);
  });

  it('writes many files into one folder at once, each whole', async () => {
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        placer.place(dir, join(dir, `${i}.png`), png, {
          ...finish(),
          metadata: sampleMetadata({ index: i }),
        }),
      ),
    );
    expect(results.every((result) => result.placed)).toBe(true);
    expect(await readdir(dir)).toHaveLength(300);
    for (const i of [0, 150, 299]) {
      const file = await readFile(join(dir, `${i}.png`));
      expect(createHash('sha256').update(file).digest('hex')).toBe(results[i]!.sha256);
    }
  });

  it('a thread that dies fails what it held, and the next write starts a new one', async () => {
    const writes = Array.from({ length: 50 }, (_, i) =>
      placer.place(dir, join(dir, `${i}.png`), png, finish()).then(
        () => 'written',
        (error: Error) => error.message,
      ),
    );
    // the thread is started by the first write; stop it as a crash would
    await new Promise((resolve) => setImmediate(resolve));
    await (placer as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    const outcomes = await Promise.all(writes);
    for (const outcome of outcomes) {
      expect(outcome).toMatch(/^(written|The file-writing thread stopped.*written again\.)$/);
    }
    expect(outcomes.some((outcome) => outcome !== 'written')).toBe(true);
    expect((await placer.place(dir, join(dir, 'after.png'), png, finish())).placed).toBe(true);
  });

  it('close waits for the writes in flight, then refuses new ones', async () => {
    const writing = placer.place(dir, join(dir, 'x.png'), png, finish());
    await placer.close();
    expect((await writing).placed).toBe(true);
    await expect(placer.place(dir, join(dir, 'y.png'), png, finish())).rejects.toThrow(/closed/);
  });
});

describe('writeImage through the placer', () => {
  it('writes the same file, with the same facts, as writing in process', async () => {
    const metadata = sampleMetadata();
    const direct = await writeImage(png, join(dir, 'direct', 'x.png'), { metadata });
    const placed = await writeImage(png, join(dir, 'placed', 'x.png'), { metadata, placer });
    expect({ ...placed, path: '' }).toEqual({ ...direct, path: '' });
    expect(await readFile(placed.path)).toEqual(await readFile(direct.path));
  });

  it('finds its own file already in place (a write repeated after a crash) and keeps it', async () => {
    const target = join(dir, 'x.png');
    const first = await writeImage(png, target, { metadata: sampleMetadata(), placer });
    const again = await writeImage(png, target, { metadata: sampleMetadata(), placer });
    expect(again).toMatchObject({ alreadyPresent: true, sha256: first.sha256 });
    expect(await readdir(dir)).toEqual(['x.png']);
  });

  it('refuses a different file at the target as target-exists, and an unwritable folder', async () => {
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
