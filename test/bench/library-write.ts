/**
 * How fast the library writes images: stream, embed metadata, check, fsync, link into place.
 * Run: node test/bench/library-write.ts [-- --concurrency 8 --dir /some/disk]
 * Prints files/s and MB/s for small (64x64) and large (1024x1024) PNGs, with and without
 * full pixel decoding, and the CPU time per file (user + system, all threads).
 * Not a test: the figures depend on the disk and on what else the machine runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { noisePixels } from '../support/library-fixtures.ts';
import { writeImagesInto } from './library-floor.ts';

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '8' },
    dir: { type: 'string', default: tmpdir() },
  },
});
const concurrency = Number(values.concurrency);

async function png(side: number): Promise<Buffer> {
  // Half noise, half flat: compresses like a generated image rather than like pure noise.
  const pixels = noisePixels(side, side, 3);
  pixels.fill(128, pixels.length >> 1);
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
}

async function run(label: string, image: Buffer, files: number, decodePixels: boolean) {
  const figures = await writeImagesInto(root, [image], { files, concurrency, decodePixels });
  console.log(
    `${label.padEnd(34)} ${files} files  ${figures.filesPerSecond.toFixed(0).padStart(6)} files/s  ` +
      `${((figures.filesPerSecond * figures.bytes) / files / 1e6).toFixed(1).padStart(7)} MB/s  ` +
      `${figures.cpuMsPerFile.toFixed(2)} CPU ms/file`,
  );
}

const small = await png(64);
const large = await png(1024);
console.log(
  `concurrency ${concurrency}, dir ${values.dir}; PNG 64x64 = ${small.length} B, ` +
    `1024x1024 = ${(large.length / 1e6).toFixed(2)} MB; every file fsynced`,
);
// Deleted only at the end: deleting between runs would slow the next run's creates.
const root = mkdtempSync(join(values.dir, 'atelier-bench-'));
try {
  await run('64x64, header check', small, 2000, false);
  if (!process.env.QUICK) await run('64x64, full decode', small, 2000, true);
  if (!process.env.QUICK) await run('1024x1024, header check', large, 200, false);
  if (!process.env.QUICK) await run('1024x1024, full decode', large, 200, true);
} finally {
  rmSync(root, { recursive: true, force: true });
}
