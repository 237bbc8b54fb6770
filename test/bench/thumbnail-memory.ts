// How a page's way of showing thumbnails decides the renderer's memory: a bare virtual grid (no
// React, no app) walks N distinct thumbnails of the seeded gallery library, 35 on screen, in
// Chromium, once per way, and prints the walk's pace and the renderer's memory by allocator.
//   npm run bench:thumbnails [-- --images 10000 --ways img,no-store,background,blob-url,canvas]
// The gallery draws its tiles as `canvas` does (TileThumbnail.tsx); docs/performance.md says why.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from '../support/browser.ts';
import { seedGallery } from './gallery-seed.ts';

const { values } = parseArgs({
  options: {
    images: { type: 'string', default: '10000' },
    ways: { type: 'string', default: 'img,no-store,background,blob-url,canvas' },
  },
});
const N = Number(values.images);
const WAYS = values.ways.split(',');

// the gallery bench's library when it is there (any size holding N), else a new one
const seeds = readdirSync(os.tmpdir())
  .filter((name) => /^atelier-gallery-seed-\d+$/.test(name))
  .map((name) => path.join(os.tmpdir(), name))
  .filter((dir) => existsSync(path.join(dir, 'seed.json')) && Number(dir.split('-').pop()) >= N);
const libraryDir = seeds.length
  ? (JSON.parse(readFileSync(path.join(seeds[0]!, 'seed.json'), 'utf8')) as { libraryDir: string })
      .libraryDir
  : (await seedGallery({ dir: path.join(os.tmpdir(), `atelier-gallery-seed-${N}`), images: N }))
      .libraryDir;
const files: string[] = [];
for (const batch of readdirSync(libraryDir)) {
  const dir = path.join(libraryDir, batch, '.thumbs');
  if (existsSync(dir)) for (const name of readdirSync(dir)) files.push(path.join(dir, name));
}
if (files.length < N)
  throw new Error(`The library at ${libraryDir} has ${files.length} thumbnails.`);
files.length = N;

// the page: rows of 7 tiles, two rows of overscan, 720 px a step, each step waits for its tiles
const PAGE = (way: string) => `<!doctype html><body style="margin:0">
<div id=view style="height:800px;overflow:auto"><div id=grid style="position:relative"></div></div>
<script>
const N = ${N}, COLS = 7, SIZE = 176, ROWS = Math.ceil(N / COLS), WAY = '${way}';
grid.style.height = ROWS * SIZE + 'px';
const live = new Map();
function tile(i, tag) {
  const el = document.createElement(tag);
  el.style.cssText = 'position:absolute;width:168px;height:168px;object-fit:cover;' +
    'background-size:cover;top:' + Math.floor(i / COLS) * SIZE + 'px;' +
    'left:' + (i % COLS) * SIZE + 'px';
  live.set(i, el);
  grid.append(el);
  return el;
}
const loaded = (el) => new Promise((done) => { el.onload = el.onerror = done; });
async function show(fresh) {
  if (WAY === 'canvas') {
    const canvases = fresh.map((i) => tile(i, 'canvas'));
    const answer = await fetch('/bundle?i=' + fresh.join(','));
    const sizes = answer.headers.get('x-sizes').split(',').map(Number);
    const bytes = await answer.blob();
    let at = 0;
    await Promise.all(canvases.map(async (canvas, k) => {
      const bitmap = await createImageBitmap(bytes.slice(at, (at += sizes[k])));
      canvas.getContext('bitmaprenderer').transferFromImageBitmap(bitmap);
    }));
    return;
  }
  await Promise.all(fresh.map(async (i) => {
    let url = (WAY === 'no-store' ? '/fresh/' : '/t/') + i;
    if (WAY === 'blob-url') url = URL.createObjectURL(await (await fetch(url)).blob());
    if (WAY === 'background') {
      tile(i, 'div').style.backgroundImage = 'url(' + url + ')';
      const probe = new Image();
      probe.src = url;
      return loaded(probe);
    }
    const img = tile(i, 'img');
    if (WAY === 'blob-url') img.dataset.blob = url;
    img.src = url;
    return loaded(img);
  }));
}
function step() {
  const first = Math.max(0, Math.floor(view.scrollTop / SIZE) - 2);
  const last = Math.min(ROWS, Math.ceil((view.scrollTop + 800) / SIZE) + 2);
  const wanted = new Set();
  for (let i = first * COLS; i < Math.min(N, last * COLS); i++) wanted.add(i);
  for (const [i, el] of live) {
    if (wanted.has(i)) continue;
    el.remove();
    live.delete(i);
    if (WAY === 'canvas') el.getContext('bitmaprenderer').transferFromImageBitmap(null);
    if (el.dataset.blob) URL.revokeObjectURL(el.dataset.blob);
  }
  return show([...wanted].filter((i) => !live.has(i)));
}
window.walk = async () => {
  const steps = [];
  const started = performance.now();
  for (;;) {
    const at = performance.now();
    await step();
    steps.push(performance.now() - at);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    if (view.scrollTop + 800 >= ROWS * SIZE - 2) break;
    view.scrollTop += 720;
  }
  return { ms: performance.now() - started, steps };
};
</script>`;

let way = WAYS[0]!;
const server = createServer((request, response) => {
  const url = new URL(request.url!, 'http://127.0.0.1');
  if (url.pathname === '/') return response.end(PAGE(way));
  if (url.pathname === '/bundle') {
    const parts = url.searchParams
      .get('i')!
      .split(',')
      .map((i) => readFileSync(files[+i]!));
    response.writeHead(200, { 'X-Sizes': parts.map((p) => p.length).join(',') });
    return response.end(Buffer.concat(parts));
  }
  const file = files[Number(url.pathname.split('/')[2])];
  if (!file) return response.writeHead(404).end();
  response.writeHead(200, {
    'Content-Type': 'image/webp',
    'Cache-Control': url.pathname.startsWith('/fresh/') ? 'no-store' : 'max-age=31536000',
  });
  response.end(readFileSync(file));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
const browser = await launchChromium();
const mb = (bytes: number) => `${Math.round(bytes / 1048576)} MB`;
console.log(`${N.toLocaleString('en-US')} distinct 256 px WebP thumbnails, 35 on screen, Chromium`);
try {
  for (way of WAYS) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(origin);
    const walk = (await page.evaluate('walk()')) as { ms: number; steps: number[] };
    const steps = [...walk.steps].sort((a, b) => a - b);
    const pid = await biggestRenderer();
    const walked = rss(pid);
    const before = await allocators(pid);
    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    await page.waitForTimeout(3000);
    console.log(
      `${way}: walked in ${(walk.ms / 1000).toFixed(1)} s, a step's tiles shown in ` +
        `p50 ${steps[steps.length >> 1]!.toFixed(0)} ms; renderer RSS ${mb(walked)}, ` +
        `after a GC ${mb(rss(pid))}`,
    );
    console.log(
      `    by allocator: ${before.map(([name, bytes]) => `${name} ${mb(bytes)}`).join(', ')}`,
    );
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}

function rss(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

async function biggestRenderer(): Promise<number> {
  const session = await browser.newBrowserCDPSession();
  const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as {
    processInfo: Array<{ type: string; id: number }>;
  };
  await session.detach();
  const renderers = processInfo.filter((p) => p.type === 'renderer').map((p) => p.id);
  return renderers.sort((a, b) => rss(b) - rss(a))[0]!;
}

/** The process's top-level allocators over 8 MB, from a memory-infra dump. */
async function allocators(pid: number): Promise<Array<[string, number]>> {
  await browser.startTracing(undefined, { categories: ['disabled-by-default-memory-infra'] });
  const session = await browser.newBrowserCDPSession();
  await session.send(
    'Tracing.requestMemoryDump' as 'Tracing.end',
    { deterministic: true, levelOfDetail: 'detailed' } as never,
  );
  await session.detach();
  const events = (
    JSON.parse((await browser.stopTracing()).toString('utf8')) as {
      traceEvents: Array<{ ph: string; pid: number; args?: { dumps?: { allocators?: object } } }>;
    }
  ).traceEvents;
  const dump = events.find((e) => e.ph === 'v' && e.pid === pid && e.args?.dumps?.allocators);
  const rows = Object.entries(
    (dump?.args?.dumps?.allocators ?? {}) as Record<
      string,
      { attrs?: { size?: { value: string } } }
    >,
  )
    .filter(([name]) => !name.includes('/') || /^cc\/(image|tile)_memory$/.test(name))
    .map(([name, entry]): [string, number] => [name, parseInt(entry.attrs?.size?.value ?? '0', 16)])
    .filter(([, bytes]) => bytes >= 8 * 1048576);
  return rows.sort((a, b) => b[1] - a[1]);
}
