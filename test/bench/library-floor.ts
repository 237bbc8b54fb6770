import { closeSync, mkdtempSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { writeImage } from '../../main/core/library/write-image.ts';
import { encodePng } from '../../main/core/simulator/images/png.ts';
import { paintPicture } from '../../main/core/simulator/images/pixels.ts';
import { sampleMetadata } from '../support/library-fixtures.ts';

/**
 * The library alone, with no engine, gateway or database: the simulator's kind of 64x64 PNG
 * written `files` times into one folder the way the engine writes it (temp file, metadata,
 * sha256, fsync, link, folder fsync). What the disk and the kernel cost per image on this
 * machine: a floor under the engine's own figure. The files are left in a new folder inside
 * `parent` for the caller to delete once every measurement is done (see measureFileCreation).
 */
export async function measureLibraryAlone(
  parent: string,
  files: number,
  concurrency: number,
): Promise<{ filesPerSecond: number; cpuMsPerFile: number }> {
  const dir = mkdtempSync(join(parent, 'floor-'));
  const images = Array.from({ length: 16 }, (_, seed) =>
    encodePng(paintPicture(64, 64, seed), 64, 64),
  );
  let next = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < files) {
        const i = next++;
        await writeImage(images[i % images.length]!, join(dir, `${i}.png`), {
          metadata: sampleMetadata({ index: i }),
        });
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  return {
    filesPerSecond: files / ((performance.now() - started) / 1000),
    cpuMsPerFile: (cpu.user + cpu.system) / 1000 / files,
  };
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
