import { closeSync, mkdtempSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { writeImage } from '../../main/core/library/write-image.ts';
import { encodePng } from '../../main/simulator/images/png.ts';
import { paintPicture } from '../../main/simulator/images/pixels.ts';
import { sampleMetadata } from '../support/library-fixtures.ts';

export interface WriteFigures {
  filesPerSecond: number;
  /** CPU of this process per file (all threads, kernel time included). */
  cpuMsPerFile: number;
  /** Bytes on disk in all, metadata included. */
  bytes: number;
}

/**
 * Writes `files` images (cycling through `images`) into a new folder inside `parent`, `concurrency`
 * at once, the way the engine writes them (temp file, metadata, sha256, fsync, link, folder
 * fsync). The files are left for the caller to delete once every measurement is done: deleting
 * them at once would slow the next measurement's creates (see measureFileCreation).
 */
export async function writeImagesInto(
  parent: string,
  images: Buffer[],
  options: { files: number; concurrency: number; decodePixels?: boolean },
): Promise<WriteFigures> {
  const dir = mkdtempSync(join(parent, 'write-'));
  let next = 0;
  let bytes = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < options.files) {
        const i = next++;
        const written = await writeImage(images[i % images.length]!, join(dir, `${i}.png`), {
          metadata: sampleMetadata({ index: i }),
          decodePixels: options.decodePixels ?? false,
        });
        bytes += written.bytes;
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  return {
    filesPerSecond: options.files / ((performance.now() - started) / 1000),
    cpuMsPerFile: (cpu.user + cpu.system) / 1000 / options.files,
    bytes,
  };
}

/**
 * The library alone, with no engine, gateway or database: the simulator's kind of 64x64 PNG
 * written `files` times. What the disk and the kernel cost per image on this machine: a floor
 * under the engine's own figure.
 */
export function measureLibraryAlone(
  parent: string,
  files: number,
  concurrency: number,
): Promise<WriteFigures> {
  const images = Array.from({ length: 16 }, (_, seed) =>
    encodePng(paintPicture(64, 64, seed), 64, 64),
  );
  return writeImagesInto(parent, images, { files, concurrency });
}

/**
 * CPU microseconds (kernel time included) that creating one empty file costs in a new folder
 * inside `parent` right now. Usually 20–40 µs; far more on ext4 without a journal (this
 * development VM's disk) in the minutes after many files were deleted nearby: each create then
 * steps over every recently freed inode of the folder's block group. A benchmark that deletes
 * its files between runs measures its own clean-up, so the bench deletes only at the end and
 * prints this figure first.
 */
export function measureFileCreation(parent: string, files = 300): number {
  const dir = mkdtempSync(join(parent, 'probe-'));
  const before = process.cpuUsage();
  for (let i = 0; i < files; i++) closeSync(openSync(join(dir, String(i)), 'wx'));
  const cpu = process.cpuUsage(before);
  return (cpu.user + cpu.system) / files;
}
