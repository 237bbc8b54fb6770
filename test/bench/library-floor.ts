import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeImage } from '../../main/core/library/write-image.ts';
import { encodePng } from '../../main/core/simulator/images/png.ts';
import { paintPicture } from '../../main/core/simulator/images/pixels.ts';
import { sampleMetadata } from '../support/library-fixtures.ts';

/**
 * The library alone, with no engine, gateway or database: the simulator's kind of 64x64 PNG
 * written `files` times into one folder the way the engine writes it (temp file, metadata,
 * sha256, fsync, link, folder fsync). What the disk and the kernel cost per image on this
 * machine: a floor under the engine's own figure.
 */
export async function measureLibraryAlone(
  files: number,
  concurrency: number,
): Promise<{ filesPerSecond: number; cpuMsPerFile: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'atelier-bench-floor-'));
  const images = Array.from({ length: 16 }, (_, seed) =>
    encodePng(paintPicture(64, 64, seed), 64, 64),
  );
  let next = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  try {
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
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
