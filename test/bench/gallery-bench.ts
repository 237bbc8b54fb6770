// The gallery with 100,000 written images, in Chromium: first paint, frame times while
// scrolling fast, search over 100,000 prompts, and the renderer's memory after scrolling
// through all of it. A benchmark, not a test: figures go in docs/performance.md and the README.
//   npm run bench:gallery [-- --only abcd --runs 5 --speed 20000 --images 100000 --fresh]
//   (--profile: CPU profiles of (a), (b) and (c) on an unminified build; --trace: a Chromium
//   trace of the scroll; --build DIR: serve a renderer built into DIR, to measure a change
//   back to back; --prebuilt DIR: serve one built before; --walk-minutes N: (d) measures the
//   memory after the images shown in N minutes, when the whole walk would take too long)
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import react from '@vitejs/plugin-react';
import Database from 'better-sqlite3';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { build } from 'vite';
import { RENDERER_DIR } from '../../main/cli/commands/ui.ts';
import { startDemoGateway } from '../../main/simulator/demo-gateway.ts';
import { openAppService } from '../../main/core/app/app-service.ts';
import { SettingsFile } from '../../main/core/settings/settings-file.ts';
import { MemoryKeyProvider } from '../../main/core/app/key.ts';
import { silentLogger } from '../../main/core/logger.ts';
import { toFtsQuery } from '../../main/core/store/fts-query.ts';
import { startWebHost } from '../../main/web/web-host.ts';
import { ensureRendererBuilt } from '../support/atelier-ui.ts';
import { launchChromium } from '../support/browser.ts';
import { GALLERY_PAGE_SCRIPT } from './gallery-page.ts';
import { SEARCH_WORDS, seedGallery, type GallerySeed } from './gallery-seed.ts';
import {
  SourceMapLookup,
  summarizeProfile,
  summarizeTrace,
  type CpuProfile,
  type TraceEvent,
} from './gallery-profile.ts';

const { values } = parseArgs({
  options: {
    images: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '5' },
    /** px/s of the fast scroll */
    speed: { type: 'string', default: '20000' },
    /** CPU profiles of the first load and the fast scroll, on an unminified build */
    profile: { type: 'boolean', default: false },
    /** build the renderer into DIR and serve that (measures a change without touching out/) */
    build: { type: 'string' },
    /** serve a renderer already built in DIR (two builds of a change, measured back to back) */
    prebuilt: { type: 'string' },
    /** a Chromium trace of the fast scroll's first pass: CPU by thread, long tasks' CPU */
    trace: { type: 'boolean', default: false },
    /** seed again, even when a seeded library of this size is in the temp folder */
    fresh: { type: 'boolean', default: false },
    /** the measures to make: a first paint, b fast scroll, c search, d memory (minutes) */
    only: { type: 'string', default: 'abcd' },
    /** (d) stops the walk after this many minutes and measures what it showed so far */
    'walk-minutes': { type: 'string' },
  },
});
const RUNS = Number(values.runs);
const SPEED = Number(values.speed);
const VIEWPORT = { width: 1280, height: 800 };
/** Tiles without an image a full screen may have (the default view shows written images only). */
const BARE_ALLOWED = 0;
const PROFILES = path.resolve(import.meta.dirname, '../../test-results/profiles');

const ROOT = path.resolve(import.meta.dirname, '../..');
const median = (xs: number[]) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : null;
const pct = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const ms = (x: number | null) => (x === null ? 'never' : `${Math.round(x)} ms`);

const [load1] = os.loadavg();
console.log(
  `Machine: ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}` + (load1! > 0.7 ? '  (busy: figures will be slower than at rest)' : ''),
);

// the app as people get it, or unminified with names for a profile
let rendererDir = RENDERER_DIR;
if (values.profile) {
  // kept (outside the project, which lints its folders): the profiles' lines point into it
  rendererDir = path.join(os.tmpdir(), 'atelier-gallery-profile-renderer');
  await build({
    root: path.join(ROOT, 'renderer'),
    plugins: [react()],
    logLevel: 'warn',
    build: { outDir: rendererDir, emptyOutDir: true, minify: false, sourcemap: true },
  });
} else if (values.build) {
  rendererDir = path.resolve(values.build);
  await build({
    root: path.join(ROOT, 'renderer'),
    plugins: [react()],
    logLevel: 'error',
    build: { outDir: rendererDir, emptyOutDir: true },
  });
} else if (values.prebuilt) {
  rendererDir = path.resolve(values.prebuilt);
} else await ensureRendererBuilt();

const seed = await seeded(Number(values.images));

// the browser host in this process, as `atelier ui` runs it (the queue is not started: idle)
const settings = new SettingsFile({ dataDir: seed.dataDir });
const service = await openAppService({
  dataDir: seed.dataDir,
  defaultLibraryDir: seed.libraryDir,
  host: 'web',
  version: 'bench',
  settings,
  keys: new MemoryKeyProvider({}),
  logger: silentLogger,
  startDemoGateway,
});
const host = await startWebHost({ app: service, rendererDir, logger: silentLogger });
/** The gallery, opened with a fresh one-time code as a person's new window is. */
const galleryUrl = () => host.newAddress('/gallery');
const browser = await launchChromium();

async function freshPage(): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession }> {
  // a new context: its own empty HTTP cache, so every load is cold for the browser
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript(GALLERY_PAGE_SCRIPT);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  return { context, page, cdp };
}

try {
  console.log(
    `Gallery with ${seed.written.toLocaleString('en-US')} written images ` +
      `(${seed.failed} failed downloads, ${seed.favorites} favourites, ${seed.batches} batches), ` +
      `Chromium headless ${VIEWPORT.width}x${VIEWPORT.height}, no GPU`,
  );
  if (values.only.includes('a')) await firstPaint();
  if (values.only.includes('b')) await scrollFast();
  if (values.only.includes('c')) await search();
  if (values.only.includes('d')) await walkAll();
} finally {
  await browser.close();
  await host.close();
  await service.close();
}
process.exit(0);

/** What a search fetched, by kind: `ids 2–31 ms, byIds 48–60 ms, 15 thumbs 61–120 ms`. */
function timeline(fetched: Array<[string, number, number]>): string {
  const kinds = new Map<string, Array<[number, number]>>();
  for (const [name, start, end] of fetched) {
    kinds.set(name, [...(kinds.get(name) ?? []), [start, end]]);
  }
  return [...kinds]
    .map(([name, spans]) => {
      const from = Math.min(...spans.map((s) => s[0]));
      const to = Math.max(...spans.map((s) => s[1]));
      return `${spans.length > 1 ? `${spans.length} ` : ''}${name} ${from}–${to} ms`;
    })
    .join(', ');
}

/**
 * The seeded library, kept in the temp folder between runs (the bench only reads it): seeding
 * takes seconds, but deleting 200,000 links slows the disk's next file creations for minutes.
 */
async function seeded(images: number): Promise<GallerySeed> {
  const seedDir = path.join(os.tmpdir(), `atelier-gallery-seed-${images}`);
  const record = path.join(seedDir, 'seed.json');
  if (!values.fresh && existsSync(record)) {
    console.log(`Seeded library: ${seedDir} (from an earlier run; --fresh seeds again)`);
    return JSON.parse(readFileSync(record, 'utf8')) as GallerySeed;
  }
  rmSync(seedDir, { recursive: true, force: true });
  const started = performance.now();
  const seed = await seedGallery({
    dir: seedDir,
    images,
    log: (line) => console.log(`  seed ${line}`),
  });
  writeFileSync(record, JSON.stringify(seed, null, 2));
  console.log(`Seeded ${seedDir} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return seed;
}

/** (a) navigation start → first thumbnail decoded, and → the first screen full. */
async function firstPaint(): Promise<void> {
  const firsts: number[] = [];
  const fulls: number[] = [];
  const cpus: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const { context, page, cdp } = await freshPage();
    const profiling = values.profile && run === RUNS - 1;
    if (profiling) await startProfile(cdp);
    const tracing = values.trace && run === RUNS - 1;
    if (tracing) {
      await browser.startTracing(page, {
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'loading'],
      });
    }
    const cpuBefore = await processCpu();
    await page.goto(galleryUrl());
    const result = (await page.evaluate(`__bench.firstPaint(${BARE_ALLOWED})`)) as {
      first: number | null;
      full: number | null;
      cells: number;
      bare: number;
    };
    const cpuAfter = await processCpu();
    if (tracing) {
      mkdirSync(PROFILES, { recursive: true });
      const file = path.join(PROFILES, 'gallery-first-load.trace.json');
      writeFileSync(file, await browser.stopTracing());
      console.log(`    trace of this load: ${file}`);
    }
    if (profiling) await stopProfile(cdp, 'first-load');
    const script = await metrics(cdp);
    const rendererCpu = (cpuAfter.renderer ?? 0) - (cpuBefore.renderer ?? 0);
    cpus.push(rendererCpu * 1000);
    console.log(
      `  cold load ${run + 1}: first thumbnail ${ms(result.first)}, ` +
        `screen full ${ms(result.full)}` +
        ` (${result.cells} tiles); renderer CPU ${ms(rendererCpu * 1000)}; ` +
        `busy ${ms(script.TaskDuration! * 1000)}: script ` +
        `${ms(script.ScriptDuration! * 1000)} (compile ${ms(script.V8CompileDuration! * 1000)}), ` +
        `style ${ms(script.RecalcStyleDuration! * 1000)}, layout ${ms(script.LayoutDuration! * 1000)}`,
    );
    const loaded = (await page.evaluate(`__bench.loaded(${result.first ?? 'null'})`)) as Array<
      [string, number, number]
    >;
    console.log(
      `    fetched until then: ${loaded.map(([n, a, b]) => `${n} ${a}–${b}`).join(', ')}`,
    );
    const commits = (await page.evaluate(`__bench.commits(${result.first ?? 'null'})`)) as number[];
    console.log(`    React commits until then: ${commits.length}, at ${commits.join(', ')} ms`);
    if (result.first === null) {
      const grid = (await page.evaluate('__bench.screen()')) !== null;
      throw new Error(
        grid
          ? 'The gallery grid showed no thumbnail within 20 s: are the thumbnails served?'
          : 'No grid named "Images" in the gallery: is the gallery grid in this build?',
      );
    }
    firsts.push(result.first);
    if (result.full !== null) fulls.push(result.full);
    await context.close();
  }
  console.log(
    `(a) first paint, median of ${RUNS} cold loads: first thumbnail ${ms(median(firsts))}, ` +
      `screen of thumbnails ${ms(median(fulls))}   (target < 1 s); ` +
      `the renderer's CPU until the first thumbnail ${ms(median(cpus))}`,
  );
}

/** (b) frame intervals while the grid scrolls at SPEED px/s for 10 s from the top. */
async function scrollFast(): Promise<void> {
  const { context, page, cdp } = await freshPage();
  await page.goto(galleryUrl());
  await page.evaluate(`__bench.firstPaint(${BARE_ALLOWED})`);
  await page.waitForTimeout(1000); // the first load's work is not what is measured
  const idle = (await page.evaluate('__bench.idleFrames(3000)')) as number[];
  console.log(
    `(b) the gallery at rest for 3 s (the machine's noise): p50 ${pct(idle, 50).toFixed(1)} ms, ` +
      `p95 ${pct(idle, 95).toFixed(1)} ms, max ${Math.max(...idle).toFixed(1)} ms`,
  );
  for (const pass of ['first pass (thumbnails not yet loaded)', 'same stretch again'] as const) {
    const profiling = values.profile && pass.startsWith('first');
    if (profiling) await startProfile(cdp);
    const tracing = values.trace && pass.startsWith('first');
    if (tracing) {
      await browser.startTracing(page, {
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'cc', 'viz'],
      });
    }
    const cpuBefore = await processCpu();
    const r = (await page.evaluate(`__bench.scrollFast(${SPEED}, 10000)`)) as {
      intervals: number[];
      tasks: Array<{ at: number; ms: number }>;
      samples: number[];
      scrolled: number;
      height: number;
    };
    const cpuAfter = await processCpu();
    const trace = tracing ? await browser.stopTracing() : null;
    if (profiling) await stopProfile(cdp, 'fast-scroll');
    const i = r.intervals;
    const over = (limit: number) => i.filter((x) => x > limit).length;
    console.log(
      `(b) scrolling ${SPEED.toLocaleString('en-US')} px/s for 10 s, ${pass}: ` +
        `${i.length} frames, p50 ${pct(i, 50).toFixed(1)} ms, p95 ${pct(i, 95).toFixed(1)} ms, ` +
        `p99 ${pct(i, 99).toFixed(1)} ms, max ${Math.max(...i).toFixed(1)} ms` +
        '   (target p95 < 18 ms)',
    );
    console.log(
      `    frames over 18 ms: ${over(18)}, over 33 ms: ${over(33)}; long tasks: ${r.tasks.length}` +
        (r.tasks.length
          ? ` (longest ${Math.round(Math.max(...r.tasks.map((t) => t.ms)))} ms)`
          : '') +
        `; scrolled ${Math.round(r.scrolled).toLocaleString('en-US')} of ` +
        `${r.height.toLocaleString('en-US')} px; visible tiles with their thumbnail: ` +
        `${Math.round(mean(r.samples) * 100)} % on average`,
    );
    // CPU seconds in the 10 s, as a share of one core
    const cpu = (type: string) => ((cpuAfter[type] ?? 0) - (cpuBefore[type] ?? 0)) * 10;
    console.log(
      `    CPU while scrolling (share of one core, less sensitive to the machine's load than ` +
        `frame times): renderer ${cpu('renderer').toFixed(0)} %, ` +
        `GPU process ${cpu('GPU').toFixed(0)} %`,
    );
    if (trace) {
      const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] })
        .traceEvents;
      for (const line of summarizeTrace(events, 10)) console.log(`    ${line}`);
    }
    await page.evaluate(`__bench.settle(${BARE_ALLOWED}, 3000)`);
  }
  await context.close();
}

/**
 * (c) a word in the search box → the count shown, and the first tiles only matches: once
 * pasted (the box waits 150 ms after the last change before it searches), once committed
 * with Enter (at once).
 */
async function search(): Promise<void> {
  const db = new Database(path.join(seed.dataDir, 'atelier.db'), { readonly: true });
  const matching = db.prepare<[string], { rel_path: string }>(
    `SELECT rel_path FROM images WHERE download_state = 'done' AND rel_path IS NOT NULL
       AND job_id IN (SELECT rowid FROM jobs_fts WHERE jobs_fts MATCH ?)`,
  );
  const lines = new Map<string, string[]>(SEARCH_WORDS.map((word) => [word, []]));
  const timelines = new Map<string, string>();
  const figures = {
    input: { counted: [] as number[], shown: [] as number[] },
    enter: { counted: [] as number[], shown: [] as number[] },
  };
  // a fresh page for each way: the other's thumbnails and details would be cached
  for (const mark of ['enter', 'input'] as const) {
    const { context, page, cdp } = await freshPage();
    await page.goto(galleryUrl());
    await page.evaluate(`__bench.firstPaint(${BARE_ALLOWED})`);
    const box = page.getByRole('searchbox', { name: 'Search prompts' });
    for (const word of SEARCH_WORDS) {
      const allowed = JSON.stringify(matching.all(toFtsQuery(word)!).map((r) => r.rel_path));
      const since = (await page.evaluate(`__bench.mark('${mark}')`)) as number;
      const watching = page.evaluate(
        `__bench.watchSearch('${mark}', ${seed.matches[word]!}, ${allowed}, ${since})`,
      ) as Promise<{
        counted: number | null;
        shown: number | null;
        status: string;
        fetched: Array<[string, number, number]>;
      }>;
      const profiling = values.profile && mark === 'enter' && word === SEARCH_WORDS[0];
      if (profiling) await startProfile(cdp);
      await box.fill(word);
      if (mark === 'enter') await box.press('Enter');
      const r = await watching;
      if (profiling) await stopProfile(cdp, 'search');
      lines
        .get(word)!
        .push(
          `${mark === 'input' ? 'pasted' : 'Enter'}: count ${ms(r.counted)}, tiles ${ms(r.shown)}`,
        );
      if (mark === 'enter') timelines.set(word, timeline(r.fetched));
      if (r.counted !== null) figures[mark].counted.push(r.counted);
      if (r.shown !== null) figures[mark].shown.push(r.shown);
      // back to everything before the next word
      await box.fill('');
      await box.press('Enter');
      await page.waitForFunction(
        (all) =>
          (globalThis as unknown as { __bench: { status(): string } }).__bench
            .status()
            .includes(all),
        seed.written.toLocaleString('en-US'),
      );
      await page.evaluate(`__bench.settle(${BARE_ALLOWED}, 5000)`);
      await page.waitForTimeout(300);
    }
    await context.close();
  }
  for (const word of SEARCH_WORDS) {
    const n = seed.matches[word]!.toLocaleString('en-US');
    console.log(`  "${word}" (${n} images): ${lines.get(word)!.join('; ')}`);
    console.log(`    after Enter: ${timelines.get(word) ?? ''}`);
  }
  db.close();
  for (const mark of ['input', 'enter'] as const) {
    const f = figures[mark];
    console.log(
      `(c) search over ${seed.jobs.toLocaleString('en-US')} prompts, median of ` +
        `${SEARCH_WORDS.length} words, ` +
        `from ${mark === 'input' ? 'the paste (150 ms wait included)' : 'Enter'}: ` +
        `count ${ms(median(f.counted))}, first tiles only matches ${ms(median(f.shown))}` +
        (mark === 'enter' ? '   (target < 100 ms)' : ''),
    );
  }
}

/** (d) every tile and thumbnail made once, top to bottom; then the renderer's memory. */
async function walkAll(): Promise<void> {
  const { context, page, cdp } = await freshPage();
  await page.goto(galleryUrl());
  await page.evaluate(`__bench.firstPaint(${BARE_ALLOWED})`);
  const before = await metrics(cdp);
  const maxMs = values['walk-minutes'] ? Number(values['walk-minutes']) * 60_000 : 'Infinity';
  const walk = (await page.evaluate(
    `__bench.scrollThrough(${BARE_ALLOWED}, 2000, Infinity, ${maxMs})`,
  )) as { steps: number; timedOut: number; ms: number; height: number; reached: number };
  const after = await metrics(cdp);
  const dom = (await page.evaluate('document.getElementsByTagName("*").length')) as number;
  const processes = await rendererMemory();
  const allocators = await memoryDump(processes.find((p) => p.type === 'renderer')?.pid);
  await cdp.send('HeapProfiler.collectGarbage');
  await page.waitForTimeout(2000);
  const collected = await metrics(cdp);
  const afterGc = await rendererMemory();
  // what Chromium gives back when the system runs short: caches, the decoded images first
  await cdp.send('Memory.simulatePressureNotification', { level: 'critical' });
  await page.waitForTimeout(2000);
  const afterPressure = await rendererMemory();
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  const rssOf = (list: typeof processes) => mb(list.find((p) => p.type === 'renderer')?.rss ?? 0);
  const whole = walk.reached >= walk.height - 2;
  // rows are of one height: the share of the grid walked is the share of the images shown
  const shown = Math.min(seed.written, Math.round((seed.written * walk.reached) / walk.height));
  console.log(
    `(d) ${whole ? 'walked top to bottom' : `walked ${shown.toLocaleString('en-US')} of the images, stopped by --walk-minutes`}: ` +
      `${walk.steps} screens in ${(walk.ms / 1000).toFixed(0)} s ` +
      `(${walk.timedOut} did not fill within 2 s), grid ${walk.height.toLocaleString('en-US')} px`,
  );
  console.log(
    `    JS heap used ${mb(before.JSHeapUsedSize!)} at first paint, ${mb(after.JSHeapUsedSize!)} ` +
      `after the walk, ${mb(collected.JSHeapUsedSize!)} after a GC; DOM elements ${dom} ` +
      `(nodes counted by Chromium, detached included: ${after.Nodes})`,
  );
  for (const p of processes) {
    console.log(
      `    ${p.type} process ${p.pid}: RSS ${mb(p.rss)}, private ${mb(p.private)}` +
        (p === processes[0] ? '   (target < 400 MB)' : ''),
    );
  }
  console.log(
    `    the renderer's RSS after a GC ${rssOf(afterGc)}, after a critical memory-pressure ` +
      `signal ${rssOf(afterPressure)}`,
  );
  console.log(
    `    memory after showing ${shown.toLocaleString('en-US')} images: the renderer's RSS ` +
      `${rssOf(processes)} (${rssOf(afterGc)} after a GC), JS heap ${mb(after.JSHeapUsedSize!)}`,
  );
  if (allocators.length) {
    console.log(
      `    its memory by allocator (Chromium's memory-infra): ` +
        allocators.map(([name, bytes]) => `${name} ${mb(bytes)}`).join(', '),
    );
  }
  await context.close();
}

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = (await cdp.send('Performance.getMetrics')) as {
    metrics: Array<{ name: string; value: number }>;
  };
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

/** The biggest allocators of one process, from a memory-infra dump: [name, bytes]. */
async function memoryDump(pid: number | undefined): Promise<Array<[string, number]>> {
  if (pid === undefined) return [];
  await browser.startTracing(undefined, { categories: ['disabled-by-default-memory-infra'] });
  const session = await browser.newBrowserCDPSession();
  // (not in playwright-core's typed protocol list)
  await session.send(
    'Tracing.requestMemoryDump' as 'Tracing.end',
    {
      deterministic: true,
      levelOfDetail: 'detailed',
    } as never,
  );
  await session.detach();
  const trace = await browser.stopTracing();
  const events = (
    JSON.parse(trace.toString('utf8')) as {
      traceEvents: Array<{
        ph: string;
        pid: number;
        args?: {
          dumps?: { allocators?: Record<string, { attrs?: { size?: { value: string } } }> };
        };
      }>;
    }
  ).traceEvents;
  const dump = events.find((e) => e.ph === 'v' && e.pid === pid && e.args?.dumps?.allocators);
  const rows: Array<[string, number]> = [];
  for (const [name, entry] of Object.entries(dump?.args?.dumps?.allocators ?? {})) {
    const depth = name.split('/').length;
    // top-level allocators, and cc's image and tile memory
    if (depth > 1 && !/^cc\/(image|tile)_memory$/.test(name)) continue;
    const bytes = parseInt(entry.attrs?.size?.value ?? '0', 16);
    if (bytes >= 4 * 1024 * 1024) rows.push([name, bytes]);
  }
  return rows.sort((a, b) => b[1] - a[1]).slice(0, 8);
}

/** CPU seconds used so far by Chromium's processes, summed by type (renderer, GPU, browser…). */
async function processCpu(): Promise<Record<string, number>> {
  const session = await browser.newBrowserCDPSession();
  const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as {
    processInfo: Array<{ type: string; cpuTime: number }>;
  };
  await session.detach();
  const sums: Record<string, number> = {};
  for (const p of processInfo) sums[p.type] = (sums[p.type] ?? 0) + p.cpuTime;
  return sums;
}

/** Chromium's renderer and GPU processes with their RSS and private memory (Linux /proc). */
async function rendererMemory(): Promise<
  Array<{ type: string; pid: number; rss: number; private: number }>
> {
  const session = await browser.newBrowserCDPSession();
  const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as {
    processInfo: Array<{ type: string; id: number }>;
  };
  await session.detach();
  const kb = (text: string, field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) * 1024;
  return processInfo
    .filter((p) => p.type === 'renderer' || p.type === 'GPU')
    .flatMap((p) => {
      try {
        const status = readFileSync(`/proc/${p.id}/status`, 'utf8');
        const rollup = readFileSync(`/proc/${p.id}/smaps_rollup`, 'utf8');
        return [
          {
            type: p.type,
            pid: p.id,
            rss: kb(status, 'VmRSS'),
            private: kb(rollup, 'Private_Clean') + kb(rollup, 'Private_Dirty'),
          },
        ];
      } catch {
        return [];
      }
    })
    .sort((a, b) => b.rss - a.rss);
}

/** The profile build's source map (one entry chunk), to name source lines. */
function bundleMap(): SourceMapLookup | null {
  const assets = path.join(rendererDir, 'assets');
  const map = readdirSync(assets).find((name) => /^index-.*\.js\.map$/.test(name));
  return map ? new SourceMapLookup(JSON.parse(readFileSync(path.join(assets, map), 'utf8'))) : null;
}

async function startProfile(cdp: CDPSession): Promise<void> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
}

async function stopProfile(cdp: CDPSession, name: string): Promise<void> {
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
  mkdirSync(PROFILES, { recursive: true });
  const file = path.join(PROFILES, `gallery-${name}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  console.log(`    profile ${file} (open in Chrome's DevTools, Performance tab):`);
  for (const line of summarizeProfile(profile, 15, bundleMap())) console.log(`      ${line}`);
}
