// The renderer under load, in Chromium: a 20,000-job batch runs at latency 0 while the Queue
// screen is open. Prints the long tasks (> 50 ms) per minute, the CPU Chromium's renderer
// used per 1,000 jobs, the frame rate while the job list scrolls, and the page's JS heap. A
// benchmark, not a test: figures go in docs/performance.md and the README.
//   npm run bench:renderer [-- --jobs 20000 --rpm 9000 --tree DIR --rounds 1 --profile --trace]
//   --rpm N: the queue's requests-per-minute cap, so two versions are compared at the same
//     event rate (at latency 0 the rate is whatever the loaded machine allows);
//   --tree DIR: measures another checkout too (its service and its built renderer), each
//     round that one first, then this one, each in a process of its own;
//   --profile: a CPU profile of the run on an unminified build, and what each long task did;
//   --trace: a Chromium trace of the whole run: CPU by thread, style, layout, paint, and of
//     the long tasks, which spent their time working and which waited for a core.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import react from '@vitejs/plugin-react';
import type { CDPSession, Locator, Page } from 'playwright-core';
import { build } from 'vite';
import type { Api } from '../../shared/api/types.ts';
import { ensureRendererBuilt } from '../support/atelier-ui.ts';
import { launchChromium } from '../support/browser.ts';
import {
  profileTasks,
  SourceMapLookup,
  summarizeTrace,
  type CpuProfile,
  type TraceEvent,
} from './gallery-profile.ts';

const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '20000' },
    rpm: { type: 'string' },
    tree: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    profile: { type: 'boolean', default: false },
    /** a Chromium trace of the run: CPU by thread, the main thread's phases, long tasks' CPU */
    trace: { type: 'boolean', default: false },
    /** (internal) measure the checkout in DIR in this process: what --tree runs */
    side: { type: 'string' },
  },
});
const JOBS = Number(values.jobs);
const ROOT = path.resolve(import.meta.dirname, '../..');
const PROFILES = path.join(ROOT, 'test-results/profiles');

/** What runs in the page, as text: this file is type-checked as Node code, without the DOM. */
const IN_PAGE = {
  observeLongTasks: `window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        window.longTasks.push({ at: entry.startTime, ms: entry.duration });
      }
    }).observe({ type: 'longtask', buffered: true });`,
  clearLongTasks: 'window.longTasks.length = 0',
  longTasks: 'window.longTasks',
  now: 'performance.now()',
};

/** What a checkout's bench host offers (today's, and older ones with one address). */
interface SideHost {
  api: Api;
  host: { url: string };
  newAddress?: (route?: string) => string;
  address?: string;
  stop(): Promise<void>;
}
interface SideModule {
  startBenchHost(concurrency: number, options?: { rendererDir?: string }): Promise<SideHost>;
  createBenchBatch(api: Api, count: number): Promise<{ id: number }>;
}

if (values.tree && !values.side) {
  // each side in a process of its own, in turns: the other checkout first, then this one
  const passOn = [
    '--jobs',
    values.jobs,
    ...(values.rpm ? ['--rpm', values.rpm] : []),
    ...(values.profile ? ['--profile'] : []),
    ...(values.trace ? ['--trace'] : []),
  ];
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const tree of [path.resolve(values.tree), ROOT]) {
      console.log(`\nRound ${round}: ${tree}`);
      await runChild([import.meta.filename, '--side', tree, ...passOn]);
    }
  }
  process.exit(0);
}

const tree = path.resolve(values.side ?? ROOT);
const side = (await import(
  pathToFileURL(path.join(tree, 'test/bench/bench-host.ts')).href
)) as SideModule;

let rendererDir: string | undefined;
if (values.profile) {
  // unminified with a source map, so the profile names the source's lines; kept outside the
  // project (which lints its folders)
  rendererDir = path.join(os.tmpdir(), `atelier-renderer-profile-${path.basename(tree)}`);
  await build({
    root: path.join(tree, 'renderer'),
    plugins: [react()],
    logLevel: 'error',
    build: { outDir: rendererDir, emptyOutDir: true, minify: false, sourcemap: true },
  });
} else if (tree === ROOT) await ensureRendererBuilt();

const [load1, load5] = os.loadavg();
const bench = await side.startBenchHost(32, rendererDir ? { rendererDir } : {});
const { api } = bench;
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // long tasks from the first script on, kept in the page
  await page.addInitScript(IN_PAGE.observeLongTasks);
  await openQueue(page, bench);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const heapMb = async () => {
    const { metrics } = (await cdp.send('Performance.getMetrics')) as {
      metrics: Array<{ name: string; value: number }>;
    };
    return (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / 1024 / 1024;
  };
  const heapBefore = await heapMb();

  const batch = await side.createBenchBatch(api, JOBS);
  if (values.rpm) await api.queue.setLimits({ requestsPerMinute: Number(values.rpm) });
  await page.evaluate(IN_PAGE.clearLongTasks);
  if (values.profile) await startProfile(cdp);
  if (values.trace) {
    await browser.startTracing(page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'],
    });
  }
  const cpuFrom = await rendererCpu();
  const started = performance.now();
  await api.queue.resume();

  // the batch's jobs, ids first and the visible rows' details as they scroll into view
  const show = page.getByRole('button', { name: 'Show jobs of bench' });
  await show.click();
  const list = page.getByRole('listbox', { name: 'Jobs' });
  await list.waitFor();
  await page.waitForTimeout(2_000); // the list's first load (10,000 ids) is not what is measured
  // phase 1, watching: 10 s of progress events and list updates, no input
  const watchFrom = (await page.evaluate(IN_PAGE.now)) as number;
  await page.waitForTimeout(10_000);
  // phase 2: the job list scrolled fast for 5 s while the batch runs
  const scrollFrom = (await page.evaluate(IN_PAGE.now)) as number;
  const fpsRunning = await scrollFor5s(list);
  const scrollTo = (await page.evaluate(IN_PAGE.now)) as number;
  for (;;) {
    const got = await api.batches.get({ id: batch.id });
    if (
      got.jobs.queued + got.jobs.running + got.jobs.retrying === 0 &&
      got.downloads.pending + got.downloads.downloading === 0
    )
      break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const runEnd = (await page.evaluate(IN_PAGE.now)) as number;
  const seconds = (performance.now() - started) / 1000;
  const cpuRun = (await rendererCpu()) - cpuFrom;
  const trace = values.trace ? await browser.stopTracing() : null;
  const profile = values.profile ? await stopProfile(cdp) : null;
  // phase 3: the same scroll with the machine at rest, for comparison
  const fpsIdle = await scrollFor5s(list);
  const longTasks = (await page.evaluate(IN_PAGE.longTasks)) as Array<{ at: number; ms: number }>;
  const during = (from: number, to: number) => longTasks.filter((t) => t.at >= from && t.at < to);
  const describe = (tasks: Array<{ ms: number }>, span: number) =>
    `${tasks.length} in ${span.toFixed(0)} s (${((tasks.length / span) * 60).toFixed(1)} a minute` +
    `${tasks.length ? `; longest ${Math.round(tasks.reduce((most, t) => Math.max(most, t.ms), 0))} ms` : ''})`;
  const heapAfter = await heapMb();
  const rate = JOBS / seconds;
  const [endLoad1] = os.loadavg();
  console.log(
    `Renderer under load: ${JOBS} jobs (64x64, latency 0, concurrency 32` +
      `${values.rpm ? `, capped at ${values.rpm} requests a minute` : ''}), Queue screen open, ` +
      `Chromium headless; ${tree === ROOT ? 'this checkout' : tree}`,
  );
  console.log(
    `  load average ${load1!.toFixed(1)} (5 min ${load5!.toFixed(1)}) at the start, ` +
      `${endLoad1!.toFixed(1)} at the end`,
  );
  console.log(`  run                         ${seconds.toFixed(1)} s at ${rate.toFixed(0)} jobs/s`);
  console.log(
    `  long tasks (> 50 ms), whole run  ${describe(during(0, runEnd), seconds)}` +
      `; ${(longTasks.filter((t) => t.at < runEnd).length / (JOBS / 1000)).toFixed(2)} per 1,000 jobs`,
  );
  if (!trace && endLoad1! > os.cpus().length) {
    console.log(
      '    (a loaded machine: a task waiting for a core counts as long; --trace says which worked)',
    );
  }
  console.log(
    `    watching (events only)       ${describe(during(watchFrom, scrollFrom), (scrollFrom - watchFrom) / 1000)}`,
  );
  console.log(
    `    scrolling the job list       ${describe(during(scrollFrom, scrollTo), (scrollTo - scrollFrom) / 1000)}`,
  );
  console.log(
    `  renderer CPU, whole run      ${(cpuRun * 1000).toFixed(0)} ms: ${((cpuRun / seconds) * 100).toFixed(0)} % of a core, ` +
      `${((cpuRun * 1000) / (JOBS / 1000)).toFixed(0)} ms per 1,000 jobs`,
  );
  console.log(
    `  frames/s scrolling the list  ${fpsRunning.toFixed(1)} while the batch runs, ${fpsIdle.toFixed(1)} after`,
  );
  console.log(
    `  JS heap                 ${heapBefore.toFixed(1)} MB before, ${heapAfter.toFixed(1)} MB after`,
  );
  if (trace) {
    const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] })
      .traceEvents;
    console.log('  the run, traced:');
    for (const line of summarizeTrace(events, seconds)) console.log(`    ${line}`);
    console.log(`    ${longTaskCpu(events)}`);
  }
  if (profile) report(profile, tree);
} finally {
  await browser.close();
  await bench.stop();
}
process.exit(0);

/** Opens the Queue with a one-time code (today), or an older checkout's token address. */
async function openQueue(page: Page, host: SideHost): Promise<void> {
  if (host.newAddress) await page.goto(host.newAddress('/queue'));
  else {
    await page.goto(host.address!);
    await page.goto(`${host.host.url}#/queue`);
  }
  await page.getByRole('heading', { name: 'Queue' }).first().waitFor();
}

/**
 * The main thread's tasks over 50 ms: how many, and how many of them worked 50 ms or more
 * themselves (the page's own cost) rather than waiting for a core on a loaded machine.
 */
function longTaskCpu(events: readonly TraceEvent[]): string {
  const main = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = events.filter(
    (e) => e.name === 'RunTask' && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`),
  );
  const long = tasks.filter((e) => e.dur! > 50_000);
  const working = long.filter((e) => (e.tdur ?? 0) > 50_000);
  const cpu = tasks.reduce((sum, e) => sum + (e.tdur ?? 0), 0) / 1000;
  // (a reduce: a run of minutes has more tasks than a spread's arguments may be)
  const longest = tasks.reduce((most, e) => Math.max(most, e.tdur ?? 0), 0) / 1000;
  return (
    `main thread: ${cpu.toFixed(0)} ms of CPU in tasks; tasks over 50 ms: ${long.length}, ` +
    `of which ${working.length} with 50 ms of CPU or more; the most CPU one task took: ` +
    `${longest.toFixed(0)} ms`
  );
}

/** CPU seconds Chromium's renderer processes have used so far. */
async function rendererCpu(): Promise<number> {
  const session = await browser.newBrowserCDPSession();
  const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as {
    processInfo: Array<{ type: string; cpuTime: number }>;
  };
  await session.detach();
  return processInfo.filter((p) => p.type === 'renderer').reduce((a, p) => a + p.cpuTime, 0);
}

async function startProfile(cdp: CDPSession): Promise<void> {
  await cdp.send('Profiler.enable');
  // 1 ms: a run of minutes at the default 100 µs would make a profile of hundreds of MB
  await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
  await cdp.send('Profiler.start');
}

async function stopProfile(cdp: CDPSession): Promise<CpuProfile> {
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
  return profile;
}

/** The profile saved, and each stretch of 50 ms or more of script with what it spent it on. */
function report(profile: CpuProfile, tree: string): void {
  mkdirSync(PROFILES, { recursive: true });
  const file = path.join(PROFILES, `renderer-${path.basename(tree)}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  console.log(`  profile ${file} (Chrome's DevTools, Performance tab)`);
  const assets = path.join(rendererDir!, 'assets');
  const mapFile = readdirSync(assets).find((name) => /^index-.*\.js\.map$/.test(name));
  const map = mapFile
    ? new SourceMapLookup(
        JSON.parse(readFileSync(path.join(assets, mapFile), 'utf8')) as {
          sources: string[];
          mappings: string;
        },
      )
    : null;
  const tasks = profileTasks(profile, 50, 6, map);
  console.log(`  stretches of 50 ms or more without a pause, in the profile: ${tasks.length}`);
  for (const line of tasks) console.log(`    ${line}`);
}

/** Runs this file again in a child process, its output passed through. */
function runChild(args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    child.once('exit', (code) =>
      code === 0 ? done() : fail(new Error(`${args.join(' ')} exited with ${code}`)),
    );
  });
}

/** Scrolls the list 400 px a frame for 5 s and returns the frames drawn a second. */
async function scrollFor5s(list: Locator): Promise<number> {
  return list.evaluate(async (element) => {
    // (runs in the page: typed by hand, this file is Node code)
    const el = element as unknown as {
      scrollTop: number;
      scrollHeight: number;
      clientHeight: number;
    };
    const raf = (globalThis as unknown as { requestAnimationFrame(cb: () => void): void })
      .requestAnimationFrame;
    let frames = 0;
    const until = performance.now() + 5000;
    while (performance.now() < until) {
      await new Promise((resolve) => raf(() => resolve(null)));
      el.scrollTop = (el.scrollTop + 400) % Math.max(1, el.scrollHeight - el.clientHeight);
      frames++;
    }
    return frames / 5;
  });
}
