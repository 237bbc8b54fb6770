// The image editor on a 4096×4096 picture, in Chromium against `atelier ui`: how long it takes
// to open, the frame times while a brush stroke crosses the picture, what ending a stroke costs
// (its undo step), and the time to export the mask at the picture's size (the PNG that is sent
// and saved). A benchmark, not a test: figures go in docs/performance.md.
//   npm run bench:editor [-- --strokes 5 --brush 256]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startGateway } from '../../main/simulator/index.ts';
import { DEFAULT_MODELS, type ImageModelSpec } from '../../main/simulator/models.ts';
import { ensureRendererBuilt, startUiAgainst } from '../support/atelier-ui.ts';
import { launchChromium } from '../support/browser.ts';
import { call } from '../support/page-helpers.ts';

const { values } = parseArgs({
  options: {
    strokes: { type: 'string', default: '5' },
    brush: { type: 'string', default: '256' },
  },
});
const STROKES = Number(values.strokes);
const BRUSH = Number(values.brush);
const SIDE = 4096;

/** What runs in the page, as text: this file is type-checked as Node code, without the DOM. */
const IN_PAGE = {
  // every frame's start while recording, and the long tasks (> 50 ms)
  record: `window.bench = { frames: [], long: [], on: true };
    const tick = (at) => { if (window.bench.on) { window.bench.frames.push(at); requestAnimationFrame(tick); } };
    requestAnimationFrame(tick);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.bench.long.push(e.duration);
    }).observe({ type: 'longtask' });`,
  stop: 'window.bench.on = false; window.bench',
  measures: (name: string) =>
    `performance.getEntriesByName(${JSON.stringify(name)}, 'measure').map((e) => e.duration)`,
};

// the simulator's largest sides are 2048: a model of its own for the picture
const BIG: ImageModelSpec = {
  kind: 'image',
  id: 'bench-4k',
  generations: 'openai',
  advanced: false,
  edits: 'multipart',
  sizes: 'any',
  minSide: 16,
  maxSide: SIDE,
  defaultSize: `${SIDE}x${SIDE}`,
  nMax: 1,
  quality: [],
  outputFormat: true,
  extra: false,
  pricePerImage: 1,
};

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
/** Polls `read` until `ok` holds (a bench runs outside vitest: no expect.poll). */
async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeout = 60_000) {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`still ${JSON.stringify(value)} after ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
const ms = (value: number) => `${value.toFixed(1)} ms`;

await ensureRendererBuilt();
const dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-bench-editor-'));
const gateway = await startGateway({ latencyMs: 0, models: [...DEFAULT_MODELS, BIG] });
const ui = await startUiAgainst(gateway, path.join(dir, 'data'), path.join(dir, 'library'));
const browser = await launchChromium();
try {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 820 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  // the brush as a person leaves it (the editor remembers it)
  await page.addInitScript(
    `localStorage.setItem('atelier.edit.brush', '{"tool":"brush","size":${BRUSH}}')`,
  );
  await page.goto(await ui.newAddress('/gallery'));
  await page.getByRole('heading', { name: 'Gallery', level: 1 }).waitFor();
  const made = Date.now();
  const batch = await call<{ id: number }>(page, 'batches', 'create', {
    name: 'big',
    source: { kind: 'rows', rows: [{ prompt: 'a very large harbour', size: `${SIDE}x${SIDE}` }] },
    defaults: { model: BIG.id, output_format: 'png' },
  });
  await until(
    async () =>
      (await call<{ downloads: Record<string, number> }>(page, 'batches', 'get', { id: batch.id }))
        .downloads['done'],
    (done) => done === 1,
    300_000,
  );
  console.log(`A ${SIDE}×${SIDE} PNG made, downloaded and thumbnailed in ${Date.now() - made} ms`);

  const tile = page.getByRole('grid', { name: 'Images' }).getByRole('gridcell').first();
  await tile.click();
  const opening = performance.now();
  await page.keyboard.press('e');
  const editor = page.getByRole('dialog', { name: 'Edit image' });
  const mask = editor.getByRole('region', { name: 'Mask' });
  await mask.getByText(`Painted at the picture’s own size, ${SIDE} × ${SIDE}.`).waitFor({
    timeout: 120_000,
  });
  await until(
    () => mask.getByRole('status').textContent(),
    (text) => /^No mask/.test(text ?? ''),
    120_000,
  );
  console.log(`Editor open, picture decoded, empty mask ready: ${ms(performance.now() - opening)}`);

  const picture = editor.getByRole('img', { name: 'a very large harbour' });
  const box = (await picture.boundingBox())!;
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const busy = async () => {
    const { metrics } = (await cdp.send('Performance.getMetrics')) as {
      metrics: Array<{ name: string; value: number }>;
    };
    const of = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
    return { task: of('TaskDuration'), script: of('ScriptDuration') };
  };
  const busyBefore = await busy();
  const intervals: number[] = [];
  const longTasks: number[] = [];
  for (let s = 0; s < STROKES; s++) {
    // a stroke across the picture, 60 pointer moves, at a height of its own each time
    const y = box.y + box.height * (0.15 + (0.7 * s) / Math.max(1, STROKES - 1));
    await page.mouse.move(box.x + box.width * 0.05, y);
    await page.evaluate(IN_PAGE.record);
    await page.mouse.down();
    for (let i = 1; i <= 60; i++) {
      await page.mouse.move(box.x + box.width * (0.05 + (0.9 * i) / 60), y + Math.sin(i / 6) * 20);
    }
    await page.mouse.up();
    const { frames, long } = (await page.evaluate(IN_PAGE.stop)) as {
      frames: number[];
      long: number[];
    };
    for (let i = 1; i < frames.length; i++) intervals.push(frames[i]! - frames[i - 1]!);
    longTasks.push(...long);
  }
  const busyAfter = await busy();
  const frameCount = intervals.length + STROKES;
  console.log(
    `Main thread busy while painting: ${ms((busyAfter.task - busyBefore.task) / frameCount)} a frame ` +
      `(of which script ${ms((busyAfter.script - busyBefore.script) / frameCount)})`,
  );
  const strokeEnds = (await page.evaluate(IN_PAGE.measures('atelier:mask-stroke-end'))) as number[];
  console.log(
    `Brush of ${BRUSH} px, ${STROKES} strokes across the picture (${intervals.length} frames): ` +
      `frame time median ${ms(quantile(intervals, 0.5))}, p95 ${ms(quantile(intervals, 0.95))}, ` +
      `max ${ms(Math.max(...intervals))}; long tasks ${longTasks.length}`,
  );
  console.log(
    `Ending a stroke (its undo step: the rectangle it touched): median ${ms(quantile(strokeEnds, 0.5))}, max ${ms(Math.max(...strokeEnds))}`,
  );

  // the mask exported at the picture's size: Save, which encodes it as the run would
  await until(
    () => mask.getByRole('status').textContent(),
    (text) => /^\d+%/.test(text ?? ''),
  );
  const exports: number[] = [];
  for (let i = 0; i < 3; i++) {
    const download = page.waitForEvent('download');
    const saving = performance.now();
    await mask.getByRole('button', { name: 'Save' }).click();
    await download;
    exports.push(performance.now() - saving);
  }
  const encoded = (await page.evaluate(IN_PAGE.measures('atelier:mask-export'))) as number[];
  const inWorker = page.workers().some((w) => w.url().includes('mask-export-worker'));
  console.log(
    `Mask export at ${SIDE}×${SIDE} (read, cut hard, PNG-encode): median ${ms(quantile(encoded.slice(-3), 0.5))} ` +
      `over the last 3 (${inWorker ? 'in its worker' : 'on the window’s thread'}); ` +
      `Save to the download: median ${ms(quantile(exports, 0.5))}`,
  );

  // a whole-picture step: invert, then undo it
  const inverting = performance.now();
  await page.keyboard.press('i');
  const before = await mask.getByRole('status').textContent();
  await until(
    () => mask.getByRole('status').textContent(),
    (text) => text !== before && /^\d+%/.test(text ?? ''),
  );
  console.log(
    `Invert and the mask's new share shown (with its export for the checks): ${ms(performance.now() - inverting)}`,
  );
  await context.close();
} finally {
  await browser.close();
  await ui.stop();
  await gateway.close();
  rmSync(dir, { recursive: true, force: true });
}
