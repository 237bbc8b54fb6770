// The renderer under load, in Chromium: a 20,000-job batch runs at latency 0 while the Queue
// screen is open. Prints the long tasks (> 50 ms) per minute, the frame rate while the job
// list scrolls (when the screen has one), and the page's JS heap. A benchmark, not a test:
// figures go in docs/performance.md and the README.
//   npm run bench:renderer [-- --jobs 20000]
import type { Locator } from 'playwright-core';
import { parseArgs } from 'node:util';
import { ensureRendererBuilt } from '../support/atelier-ui.ts';
import { launchChromium } from '../support/browser.ts';
import { createBenchBatch, startBenchHost } from './bench-host.ts';

const { values } = parseArgs({ options: { jobs: { type: 'string', default: '20000' } } });
const JOBS = Number(values.jobs);

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

await ensureRendererBuilt();
const bench = await startBenchHost(32);
const { api } = bench;
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // long tasks from the first script on, kept in the page
  await page.addInitScript(IN_PAGE.observeLongTasks);
  await page.goto(bench.newAddress('/queue'));
  await page.getByRole('heading', { name: 'Queue' }).first().waitFor();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const heapMb = async () => {
    const { metrics } = (await cdp.send('Performance.getMetrics')) as {
      metrics: Array<{ name: string; value: number }>;
    };
    return (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / 1024 / 1024;
  };
  const heapBefore = await heapMb();

  const batch = await createBenchBatch(api, JOBS);
  await page.evaluate(IN_PAGE.clearLongTasks);
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
  // phase 3: the same scroll with the machine at rest, for comparison
  const fpsIdle = await scrollFor5s(list);
  const minutes = (performance.now() - started) / 60_000;
  const longTasks = (await page.evaluate(IN_PAGE.longTasks)) as Array<{ at: number; ms: number }>;
  const during = (from: number, to: number) => longTasks.filter((t) => t.at >= from && t.at < to);
  const describe = (tasks: Array<{ ms: number }>, seconds: number) =>
    `${tasks.length} in ${seconds.toFixed(0)} s (${((tasks.length / seconds) * 60).toFixed(1)} a minute` +
    `${tasks.length ? `; longest ${Math.round(Math.max(...tasks.map((t) => t.ms)))} ms` : ''})`;
  const heapAfter = await heapMb();
  const rate = Math.round(JOBS / (minutes * 60));
  console.log(
    `Renderer under load: ${JOBS} jobs (64x64, latency 0, concurrency 32), Queue screen open, Chromium headless`,
  );
  console.log(`  run                         ${(minutes * 60).toFixed(1)} s at ${rate} jobs/s`);
  console.log(
    `  long tasks (> 50 ms), whole run  ${describe(during(0, runEnd), (runEnd - watchFrom) / 1000)}`,
  );
  console.log(
    `    watching (events only)       ${describe(during(watchFrom, scrollFrom), (scrollFrom - watchFrom) / 1000)}`,
  );
  console.log(
    `    scrolling the job list       ${describe(during(scrollFrom, scrollTo), (scrollTo - scrollFrom) / 1000)}`,
  );
  console.log(
    `  frames/s scrolling the list  ${fpsRunning.toFixed(1)} while the batch runs, ${fpsIdle.toFixed(1)} after`,
  );
  console.log(
    `  JS heap                 ${heapBefore.toFixed(1)} MB before, ${heapAfter.toFixed(1)} MB after`,
  );
} finally {
  await browser.close();
  await bench.stop();
}
process.exit(0);

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
