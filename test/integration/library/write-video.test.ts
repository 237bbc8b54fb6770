import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LibraryWriteError } from '../../../main/core/library/write-error.ts';
import { writeVideo } from '../../../main/core/library/write-video.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'atelier-video-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The start of an MP4 (an 'ftyp' box), then `fill` bytes standing for the media. */
function mp4(fill: number): Buffer {
  const ftyp = Buffer.alloc(16);
  ftyp.writeUInt32BE(16, 0);
  ftyp.write('ftypisom', 4, 'latin1');
  return Buffer.concat([ftyp, Buffer.alloc(200, fill)]);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function failure(promise: Promise<unknown>): Promise<LibraryWriteError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LibraryWriteError);
  return error as LibraryWriteError;
}

describe('writeVideo', () => {
  it('puts the video at the target, in a new folder, with its size and hash', async () => {
    const target = join(dir, 'batch', '0001-fox.mp4');
    const video = mp4(1);
    await expect(writeVideo(video, target)).resolves.toEqual({
      path: target,
      bytes: video.length,
      sha256: sha256(video),
      format: 'mp4',
    });
    expect(await readFile(target)).toEqual(video);
    expect(await readdir(join(dir, 'batch'))).toEqual(['0001-fox.mp4']);
  });

  it('counts the identical video already at the target as written (a repeat after a crash)', async () => {
    const target = join(dir, 'a.mp4');
    const first = await writeVideo(mp4(1), target);
    await expect(writeVideo(mp4(1), target)).resolves.toEqual(first);
    expect(await readdir(dir)).toEqual(['a.mp4']);
  });

  it('never overwrites a different file, and leaves no temp file', async () => {
    const target = join(dir, 'a.mp4');
    await writeFile(target, 'not this video');
    const error = await failure(writeVideo(mp4(1), target));
    expect(error.kind).toBe('target-exists');
    expect(error.message).toContain('never overwrites');
    expect(await readFile(target, 'utf8')).toBe('not this video');
    expect(await readdir(dir)).toEqual(['a.mp4']);
  });

  it('refuses what is not an MP4, or nothing at all, leaving nothing', async () => {
    const target = join(dir, 'a.mp4');
    expect((await failure(writeVideo(Buffer.from('<html>expired</html>'), target))).kind).toBe(
      'wrong-format',
    );
    expect((await failure(writeVideo(Buffer.alloc(0), target))).kind).toBe('truncated');
    expect(await readdir(dir)).toEqual([]);
  });
});
