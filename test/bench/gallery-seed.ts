// A library of 100,000 written images for the gallery benchmark, made in seconds: batches,
// jobs and images through the store's own code, job states by two UPDATEs per batch, files as
// hard links to a pool of distinct pictures (every image its own path, so its own URL, as the
// browser caches by URL; 200,000 links cost seconds where copies would cost 2 GB). Not a test.
//   node test/bench/gallery-seed.ts [--dir DIR] [--images 100000] [--distinct 1000]
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SettingsFile } from '../../main/core/settings/settings-file.ts';
import { loadSharp } from '../../main/core/library/load-sharp.ts';
import { thumbnailPath } from '../../main/core/library/thumbnail.ts';
import { URL_EXPIRED_CODE } from '../../main/core/store/image-repository.ts';
import type { NewJob } from '../../main/core/store/job-insert.ts';
import { openStore } from '../../main/core/store/store.ts';

/** Words the benchmark searches for, each in its own slot of the prompt, so its share is known. */
export const SEARCH_WORDS = ['lighthouse', 'watercolor', 'harbour', 'tapestry', 'neon'] as const;

const STYLES = [
  'a watercolor painting', // 1 in 10
  'an oil painting',
  'a photograph',
  'a pencil sketch',
  'a 3D render',
  'an ink drawing',
  'a gouache study',
  'a linocut print',
  'a pastel drawing',
  'a cinematic still',
];
/** 100 subjects: each, "lighthouse" among them, in about 1 prompt in 100. */
const SUBJECTS = (
  'lighthouse fox owl cat dog horse whale heron otter bear wolf deer rabbit sparrow crow ' +
  'dragon robot astronaut knight wizard dancer fisherman gardener violinist child ' +
  'castle windmill bridge tower temple pagoda cottage barn greenhouse observatory ' +
  'sailboat steamship locomotive tram bicycle zeppelin submarine lantern teapot clock ' +
  'mountain glacier volcano waterfall canyon desert meadow orchard vineyard forest ' +
  'jellyfish octopus coral turtle seahorse butterfly beetle dragonfly moth snail ' +
  'sunflower tulip orchid cactus mushroom fern bonsai lotus poppy lavender ' +
  'market library kitchen workshop theatre station cafe bakery attic cellar ' +
  'city village island lifeboat pier dune reef quarry ruins monastery ' +
  'comet nebula galaxy moon eclipse aurora storm rainbow iceberg geyser'
).split(' ');
/** 20 places: "harbour" in about 1 in 20. */
const SETTINGS = [
  'in a quiet harbour',
  'on a misty hill',
  'in a snowy forest',
  'by a river at dusk',
  'in a crowded street',
  'on a desert road',
  'in an old greenhouse',
  'under a bridge',
  'on a rocky coast',
  'in a sunlit field',
  'in a rainy alley',
  'on a frozen lake',
  'in a mountain pass',
  'at a night market',
  'in a ruined abbey',
  'on a rooftop',
  'in a bamboo grove',
  'beside a waterfall',
  'in a cluttered studio',
  'on a small island',
];
/** 25 lights: "neon" in about 1 in 25. */
const LIGHTS = [
  'neon light',
  'golden hour',
  'soft morning light',
  'moonlight',
  'candlelight',
  'overcast light',
  'harsh noon sun',
  'blue hour',
  'firelight',
  'studio lighting',
  'backlit',
  'dappled light',
  'foggy light',
  'stormy light',
  'twilight',
  'lantern light',
  'window light',
  'rim light',
  'warm glow',
  'cold light',
  'sunset',
  'sunrise',
  'starlight',
  'dim light',
  'bright daylight',
];
const DETAILS = [
  'highly detailed',
  'muted palette',
  'vivid colours',
  'wide angle',
  'close-up',
  'shallow depth of field',
  'minimalist',
  'intricate',
  'grainy film',
  'symmetrical composition',
];
/** In about 1 prompt in 1,000: the rare word. */
const RARE = 'woven like a medieval tapestry';
const MODELS = ['gpt-image-1', 'gpt-image-1', 'flux-pro', 'flux-schnell', 'qwen-image', 'dall-e-3'];
const SIZES = [
  { size: '1024x1024', w: 512, h: 512 },
  { size: '1536x1024', w: 768, h: 512 },
  { size: '1024x1536', w: 512, h: 768 },
];
const FAILURES: Array<{ code: string; reason: string }> = [
  { code: URL_EXPIRED_CODE, reason: 'The image link had expired (HTTP 403).' },
  { code: URL_EXPIRED_CODE, reason: 'The image link had expired (HTTP 404).' },
  { code: 'timeout', reason: 'The download timed out after 60 s (tries used up: 5).' },
  { code: 'corrupt', reason: 'The file is not an image Atelier can read.' },
];
const DAY = 86_400_000;
const BATCHES = 48;
/** Six weeks of work, ending at the fixed moment below (same library on every run). */
const SPAN_DAYS = 42;
const END = Date.UTC(2026, 10, 20, 18, 0, 0);

export interface SeedOptions {
  /** An empty or missing folder; `data/` and `library/` are made inside. */
  dir: string;
  /** Written images (default 100,000); failed downloads come on top. */
  images?: number;
  /** Distinct picture files behind all the paths (default 1,000). */
  distinct?: number;
  /** Where the distinct pictures are kept between runs (default: in the system temp folder). */
  poolDir?: string;
  log?: (line: string) => void;
}

export interface GallerySeed {
  dataDir: string;
  libraryDir: string;
  batches: number;
  jobs: number;
  written: number;
  failed: number;
  expiredLinks: number;
  favorites: number;
  /** Written images whose prompt has each search word, counted by the store's own query. */
  matches: Record<string, number>;
  /** How the 100,000 paths got their bytes. */
  files: 'hard links' | 'copies';
  seconds: { pool: number; rows: number; files: number };
}

/** A deterministic random source (mulberry32): the same library on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface PoolFile {
  image: string;
  thumb: string;
  bytes: number;
  sha256: string;
  width: number;
  height: number;
}

/**
 * `distinct` pictures (gradient, shapes, a noise texture: thumbnails of about 10 KB, like real
 * ones) and their thumbnails as the core makes them (256 px inside, WebP quality 70), kept
 * between runs: making them is the only slow part (about 17 ms each).
 */
async function picturePool(dir: string, distinct: number): Promise<PoolFile[]> {
  const manifest = path.join(dir, 'pool.json');
  if (existsSync(manifest)) {
    const files = JSON.parse(readFileSync(manifest, 'utf8')) as PoolFile[];
    if (files.length === distinct && files.every((f) => existsSync(f.image))) return files;
  }
  rmSync(dir, { recursive: true, force: true });
  const work = `${dir}.part-${process.pid}`;
  mkdirSync(work, { recursive: true });
  const sharp = await loadSharp();
  const textures = await Promise.all(
    [0, 1, 2, 3, 4, 5, 6, 7].map(() =>
      sharp({
        create: {
          width: 96,
          height: 96,
          channels: 3,
          background: '#808080',
          noise: { type: 'gaussian', mean: 128, sigma: 40 },
        },
      }),
    ),
  );
  const files: PoolFile[] = [];
  const make = async (i: number): Promise<PoolFile> => {
    const { w, h } = SIZES[i % SIZES.length]!;
    const hue = (i * 137) % 360;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
      <defs><linearGradient id="g" x1="0" y1="0" x2="${i % 2}" y2="1">
        <stop offset="0" stop-color="hsl(${hue},70%,60%)"/>
        <stop offset="1" stop-color="hsl(${(hue + 140) % 360},55%,22%)"/></linearGradient></defs>
      <rect width="${w}" height="${h}" fill="url(#g)"/>
      <circle cx="${(i * 53) % w}" cy="${(i * 29) % h}" r="${60 + (i % 90)}"
        fill="hsl(${(hue + 60) % 360},85%,70%)" opacity="0.8"/>
      <rect x="${w / 8}" y="${(h * 5) / 8}" width="${(w * 3) / 4}" height="${h / 4}" rx="24"
        fill="hsl(${(hue + 200) % 360},45%,38%)" opacity="0.7"/></svg>`;
    const texture = await textures[i % textures.length]!.clone()
      .resize(w, h, { kernel: 'cubic' })
      .raw()
      .toBuffer();
    const raw = await sharp(Buffer.from(svg))
      .composite([
        { input: texture, raw: { width: w, height: h, channels: 3 }, blend: 'soft-light' },
      ])
      .removeAlpha()
      .raw()
      .toBuffer();
    const asRaw = { raw: { width: w, height: h, channels: 3 as const } };
    const [png, webp] = await Promise.all([
      sharp(raw, asRaw).png({ compressionLevel: 1 }).toBuffer(),
      sharp(raw, asRaw)
        .resize(256, 256, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 70 })
        .toBuffer(),
    ]);
    const image = path.join(work, `p${i}.png`);
    writeFileSync(image, png);
    writeFileSync(thumbnailPath(image, work), webp);
    return {
      image: path.join(dir, `p${i}.png`),
      thumb: thumbnailPath(path.join(dir, `p${i}.png`), dir),
      bytes: png.length,
      sha256: createHash('sha256').update(png).digest('hex'),
      width: w,
      height: h,
    };
  };
  // four at a time: sharp's own threads keep both cores busy
  for (let i = 0; i < distinct; i += 4) {
    const group = [i, i + 1, i + 2, i + 3].filter((k) => k < distinct);
    files.push(...(await Promise.all(group.map(make))));
  }
  writeFileSync(path.join(work, 'pool.json'), JSON.stringify(files));
  renameSync(work, dir);
  return files;
}

interface PlannedImage {
  idx: number;
  failure: { code: string; reason: string } | null;
  favorite: boolean;
}

interface PlannedJob extends NewJob {
  images: PlannedImage[];
}

/** Prompts, models, sizes and images of every batch, until `written` images are planned. */
function plan(written: number, rnd: () => number): PlannedJob[][] {
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const perBatch = Math.ceil(written / BATCHES);
  const batches: PlannedJob[][] = [];
  let planned = 0;
  for (let b = 0; b < BATCHES && planned < written; b++) {
    const jobs: PlannedJob[] = [];
    const model = pick(MODELS);
    let inBatch = 0;
    while (inBatch < perBatch && planned < written) {
      const n = rnd() < 0.6 ? 1 : rnd() < 0.5 ? 2 : 4;
      const sized = pick(SIZES);
      const rare = rnd() < 0.001 ? `, ${RARE}` : '';
      const prompt =
        `${pick(STYLES)} of a ${pick(SUBJECTS)} ${pick(SETTINGS)}, ${pick(LIGHTS)}, ` +
        `${pick(DETAILS)}${rare}`;
      const images: PlannedImage[] = [];
      for (let idx = 1; idx <= n && planned < written; idx++) {
        const failure = rnd() < 0.02 ? pick(FAILURES) : null;
        if (!failure) planned++;
        images.push({ idx, failure, favorite: !failure && rnd() < 0.03 });
      }
      inBatch += images.filter((image) => !image.failure).length;
      jobs.push({ prompt, model, size: sized.size, n, seed: Math.floor(rnd() * 2 ** 31), images });
    }
    batches.push(jobs);
  }
  return batches;
}

/** Makes the data folder and library; see the file's head. */
export async function seedGallery(options: SeedOptions): Promise<GallerySeed> {
  const log = options.log ?? (() => {});
  const written = options.images ?? 100_000;
  const distinct = options.distinct ?? 1_000;
  const dataDir = path.join(options.dir, 'data');
  const libraryDir = path.join(options.dir, 'library');
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(libraryDir, { recursive: true });
  const settings = new SettingsFile({ dataDir });
  settings.write({ ...settings.read(), library: libraryDir, thumbnails: true });

  let started = performance.now();
  const poolDir = options.poolDir ?? path.join(os.tmpdir(), `atelier-gallery-pool-${distinct}`);
  const pool = await picturePool(poolDir, distinct);
  const poolSeconds = (performance.now() - started) / 1000;
  log(`pictures: ${distinct} distinct in ${poolDir} (${poolSeconds.toFixed(1)} s)`);

  started = performance.now();
  const rnd = random(16);
  const batches = plan(written, rnd);
  const store = openStore(path.join(dataDir, 'atelier.db'));
  const links: Array<[from: PoolFile, to: string]> = [];
  let jobCount = 0;
  let failed = 0;
  let expiredLinks = 0;
  try {
    // Job states by two UPDATEs per batch: the engine's claim → attempt → succeed per job is
    // what `npm run bench` measures; here only the outcome matters (the log and counts follow).
    const finishJobs = store.db.prepare(
      `UPDATE jobs SET state = ?, state_reason = NULL, tries = 1, returned_n = n,
         started_at = created_at + 1000, finished_at = created_at + 9000,
         updated_at = created_at + ? WHERE batch_id = ?`,
    );
    const jobIds = store.db.prepare<[number], { id: number }>(
      'SELECT id FROM jobs WHERE batch_id = ? ORDER BY position',
    );
    const favoriteIds: number[] = [];
    store.transaction(() => {
      batches.forEach((jobs, b) => {
        const batchAt =
          END - SPAN_DAYS * DAY + Math.floor(((b + rnd()) * SPAN_DAYS * DAY) / BATCHES);
        const batch = store.batches.create(
          { name: `${jobs[0]!.prompt.split(' of a ')[1]!.split(' ')[0]} studies ${b + 1}` },
          jobs,
          batchAt,
        );
        finishJobs.run('running', 1000, batch.id);
        finishJobs.run('succeeded', 9000, batch.id);
        const ids = jobIds.all(batch.id);
        jobs.forEach((job, j) => {
          const jobId = ids[j]!.id;
          // a batch runs for about an hour: a second or so per job
          const at = batchAt + j * 1100 + 9000;
          // The store's own write path, the engine's: the result stored with its name
          // reserved, then written or failed (about 20 µs an image).
          const rows = store.images.addResults(
            jobId,
            job.images.map((image) => ({
              idx: image.idx,
              url: `https://gateway.invalid/files/${jobId}-${image.idx}.png`,
              relPath: `${batch.dirName}/${String(j + 1).padStart(5, '0')}-${image.idx}.png`,
            })),
            at,
            { downloading: true },
          );
          job.images.forEach((image, k) => {
            const row = rows[k]!;
            if (image.failure) {
              failed++;
              if (image.failure.code === URL_EXPIRED_CODE) expiredLinks++;
              store.images.markDownloadFailed(row.id, {
                ...image.failure,
                retryAt: null,
                now: at + 500,
              });
              return;
            }
            const file = pool[(jobId * 7 + image.idx) % pool.length]!;
            links.push([file, path.join(libraryDir, row.relPath!)]);
            store.images.markDone(row.id, { ...file, format: 'png', now: at + 500 });
            if (image.favorite) favoriteIds.push(row.id);
          });
        });
        jobCount += jobs.length;
      });
      for (let i = 0; i < favoriteIds.length; i += 10_000) {
        store.gallery.setFavorite(favoriteIds.slice(i, i + 10_000), true, Date.now());
      }
    });
    const favorites = favoriteIds.length;
    const rowsSeconds = (performance.now() - started) / 1000;
    log(
      `rows: ${batches.length} batches, ${jobCount} jobs, ${written + failed} images ` +
        `(${rowsSeconds.toFixed(1)} s)`,
    );

    started = performance.now();
    let files: GallerySeed['files'] = 'hard links';
    const dirs = new Set<string>();
    for (const [from, to] of links) {
      const folder = path.dirname(to);
      if (!dirs.has(folder)) {
        mkdirSync(path.join(folder, '.thumbs'), { recursive: true });
        dirs.add(folder);
      }
      try {
        linkSync(from.image, to);
        linkSync(from.thumb, thumbnailPath(to));
      } catch (error) {
        // another disk than the pool's: copies (a link cannot cross file systems)
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        files = 'copies';
        copyFileSync(from.image, to);
        copyFileSync(from.thumb, thumbnailPath(to));
      }
    }
    const filesSeconds = (performance.now() - started) / 1000;
    log(`files: ${links.length} images and thumbnails as ${files} (${filesSeconds.toFixed(1)} s)`);

    const matches: Record<string, number> = {};
    for (const word of SEARCH_WORDS) {
      matches[word] = store.gallery.count({
        downloadStates: ['done'],
        text: word,
        order: 'newest',
      });
    }
    const count = store.db.prepare<[], { done: number; failed: number }>(
      `SELECT count(*) FILTER (WHERE download_state = 'done') AS done,
         count(*) FILTER (WHERE download_state = 'failed') AS failed FROM images`,
    );
    const counted = count.get()!;
    if (counted.done !== written || counted.failed !== failed || links.length !== written) {
      throw new Error(`The seed wrote ${counted.done} images, not ${written}: fix plan().`);
    }
    return {
      dataDir,
      libraryDir,
      batches: batches.length,
      jobs: jobCount,
      written,
      failed,
      expiredLinks,
      favorites,
      matches,
      files,
      seconds: { pool: poolSeconds, rows: rowsSeconds, files: filesSeconds },
    };
  } finally {
    store.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string' },
      images: { type: 'string', default: '100000' },
      distinct: { type: 'string', default: '1000' },
    },
  });
  const dir = values.dir ?? mkdtempSync(path.join(os.tmpdir(), 'atelier-gallery-'));
  const seed = await seedGallery({
    dir,
    images: Number(values.images),
    distinct: Number(values.distinct),
    log: (line) => console.log(line),
  });
  console.log(JSON.stringify(seed, null, 2));
  console.log(`atelier ui --data ${seed.dataDir} --out ${seed.libraryDir}`);
}
