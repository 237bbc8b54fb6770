import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import { abortedError, sourceChunks, type ImageSource } from './image-source.ts';
import {
  defaultLibraryFs,
  openInFolder,
  placeWithoutOverwrite,
  removeQuietly,
  syncDirectory,
  tempPathIn,
  writeAll,
  type LibraryFs,
} from './library-fs.ts';
import { fromFsError, LibraryWriteError } from './write-error.ts';

export interface WrittenVideo {
  path: string;
  bytes: number;
  sha256: string;
  format: 'mp4';
}

/**
 * Writes a video (streamed, never buffered whole) the way writeImage writes a picture:
 * hidden temp file beside the target, hashed, checked for an ISO media header ('ftyp'),
 * fsynced, linked into place without overwriting, folder fsynced.
 */
export async function writeVideo(
  source: ImageSource,
  targetPath: string,
  options: { signal?: AbortSignal; fs?: LibraryFs } = {},
): Promise<WrittenVideo> {
  const fs = options.fs ?? defaultLibraryFs;
  const dir = dirname(targetPath);
  let temp: string | null = null;
  let handle: FileHandle | null = null;
  try {
    temp = tempPathIn(dir);
    handle = await openInFolder(fs, dir, temp);
    const hash = createHash('sha256');
    let bytes = 0;
    let head = Buffer.alloc(0);
    for await (const chunk of sourceChunks(source, options.signal)) {
      if (head.length < 12) head = Buffer.concat([head, chunk.subarray(0, 12 - head.length)]);
      hash.update(chunk);
      bytes += chunk.length;
      await writeAll(handle, chunk);
    }
    if (head.length < 12 || head.toString('latin1', 4, 8) !== 'ftyp') {
      throw new LibraryWriteError(
        bytes === 0 ? 'truncated' : 'wrong-format',
        `The video download is not an MP4 file (${bytes} bytes received). Retry the download.`,
      );
    }
    await handle.sync();
    await handle.close();
    handle = null;
    const sha256 = hash.digest('hex');
    if (options.signal?.aborted) throw abortedError(options.signal);
    if ((await placeWithoutOverwrite(fs, temp, targetPath)) === 'exists') {
      throw new LibraryWriteError(
        'target-exists',
        `A file already exists at ${targetPath}; Atelier never overwrites a file. Move it, then retry the download.`,
      );
    }
    temp = null;
    await syncDirectory(fs, dir);
    return { path: targetPath, bytes, sha256, format: 'mp4' };
  } catch (error) {
    if (handle) await handle.close().catch(() => undefined);
    if (temp) await removeQuietly(fs, temp);
    if (options.signal?.aborted) throw abortedError(options.signal);
    if (error instanceof LibraryWriteError) throw error;
    throw fromFsError(error, 'write the video', targetPath);
  }
}
