// The browser host's API latency with many event streams open while a demo batch runs: what a
// person with many windows (or a stalled tab's reconnects) costs the others. `atelier ui --demo`
// runs in a child process from each tree given, one after another in one run, so two versions
// are compared side by side, with the gallery's thumbnail bundles; figures go in
// docs/performance.md.
//   npm run bench:streams [-- --streams 1,150 --seconds 20 --tree DIR --tree DIR]
// A tree is a checkout with its node_modules and built renderer (default: this one). Builds
// from before the session (their address has ?token=) are logged in with their cookie.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool, request } from 'undici';
import { openSession } from '../support/web-login.ts';

const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '1,150' },
    seconds: { type: 'string', default: '20' },
    tree: { type: 'string', multiple: true },
  },
});
const STREAMS = values.streams.split(',').map(Number);
const SECONDS = Number(values.seconds);
const TREES = (values.tree ?? [path.resolve(import.meta.dirname, '../..')]).map((t) =>
  path.resolve(t),
);
/** Thumbnails in a bundle: a screenful of the grid. */
const BUNDLE = 25;
const METHODS: Array<[string, string, unknown]> = [
  ['app', 'info', {}],
  ['queue', 'state', {}],
  ['batches', 'list', {}],
  ['images', 'page', { limit: 100 }],
];

interface Running {
  address: string;
  stop(): Promise<void>;
}

/** `atelier ui --demo` from `tree`, on a fresh data folder; resolves once it prints its address. */
async function startUi(tree: string): Promise<Running> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-bench-streams-'));
  const child = spawn(
    process.execPath,
    [path.join(tree, 'bin', 'atelier.js'), 'ui', '--demo', '--no-open', '--data', `${dir}/d`],
    { cwd: dir, stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ATELIER_API_KEY: '' } },
  );
  let out = '';
  const address = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`atelier ui exited with ${code}`)));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /Atelier is running at (\S+)\n/.exec(out);
      if (match) resolve(match[1]!);
    });
  });
  return {
    address,
    stop: () =>
      new Promise((done) => {
        child.once('exit', () => {
          rmSync(dir, { recursive: true, force: true });
          done();
        });
        child.kill('SIGINT');
      }),
  };
}

/** The headers that open the host: its session's bearer, or the cookie of older builds. */
async function logIn(address: string): Promise<Record<string, string>> {
  const url = new URL(address);
  if (url.searchParams.has('token')) {
    const login = await request(address);
    await login.body.dump();
    return { cookie: String(login.headers['set-cookie']).split(';')[0]! };
  }
  return { authorization: `Bearer ${(await openSession(address)).token}` };
}

const pct = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const ms = (x: number) => x.toFixed(2);

async function measure(tree: string, streams: number): Promise<string> {
  const ui = await startUi(tree);
  const origin = new URL(ui.address).origin;
  const auth = await logIn(ui.address);
  const api = new Pool(origin, { connections: 1 });
  const call = async (area: string, method: string, input: unknown) => {
    const response = await api.request({
      method: 'POST',
      path: `/api/${area}/${method}`,
      headers: { ...auth, 'content-type': 'application/json', origin },
      body: JSON.stringify(input),
    });
    const result = (await response.body.json()) as { ok: boolean; value?: unknown };
    if (!result.ok) throw new Error(`${area}.${method}: ${JSON.stringify(result)}`);
    return result.value;
  };
  /** The grid's way: a bundle of a screenful of thumbnails, as the gallery asks it. */
  const bundle = async (query: string) => {
    const response = await api.request({
      method: 'GET',
      path: `/thumb-bundle?${query}`,
      headers: auth,
    });
    const bytes = (await response.body.arrayBuffer()).byteLength;
    if (response.statusCode !== 200 || bytes === 0)
      throw new Error(`bundle: ${response.statusCode}`);
  };
  // (5,000 requests pass the confirmation threshold: a bench asks nobody)
  await call('settings', 'update', {
    concurrency: 16,
    confirmSpend: { units: null, requests: null },
  });
  await call('batches', 'create', {
    name: 'streams',
    source: {
      kind: 'rows',
      rows: Array.from({ length: 5000 }, (_, i) => ({ prompt: `a quiet harbour ${i}` })),
    },
    defaults: { model: 'flux-schnell', size: '64x64' },
  });
  // every stream on a connection of its own, as every window has
  const pool = new Pool(origin, { connections: streams });
  const bytes = new Array<number>(streams).fill(0);
  const bodies = await Promise.all(
    Array.from({ length: streams }, async (_, i) => {
      const response = await pool.request({
        method: 'GET',
        path: '/api/events',
        headers: { ...auth, accept: 'text/event-stream' },
      });
      if (response.statusCode !== 200) throw new Error(`stream ${i}: ${response.statusCode}`);
      response.body.on('data', (chunk: Buffer) => (bytes[i]! += chunk.length));
      return response.body;
    }),
  );
  await new Promise((r) => setTimeout(r, 2_000)); // the batch under way, every stream fed
  const { items } = (await call('images', 'page', { limit: BUNDLE })) as {
    items: Array<{ thumbRelPath: string | null }>;
  };
  const thumbs = items.flatMap((i) => (i.thumbRelPath ? [i.thumbRelPath] : []));
  if (thumbs.length < BUNDLE) throw new Error(`only ${thumbs.length} thumbnails made yet`);
  const query = thumbs
    .map((rel) => `p=${encodeURIComponent(rel.split('/').map(encodeURIComponent).join('/'))}`)
    .join('&');
  const latencies = new Map<string, number[]>([
    ...METHODS.map(([a, m]): [string, number[]] => [`${a}.${m}`, []]),
    [`bundle of ${BUNDLE}`, []],
  ]);
  const startBytes = bytes.reduce((a, b) => a + b, 0);
  const end = performance.now() + SECONDS * 1000;
  while (performance.now() < end) {
    for (const [area, method, input] of METHODS) {
      const started = performance.now();
      await call(area, method, input);
      latencies.get(`${area}.${method}`)!.push(performance.now() - started);
    }
    const started = performance.now();
    await bundle(query);
    latencies.get(`bundle of ${BUNDLE}`)!.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 50));
  }
  const fed = bytes.reduce((a, b) => a + b, 0) - startBytes;
  const starved = bytes.filter((b) => b === 0).length;
  for (const body of bodies) body.destroy();
  await pool.destroy();
  await api.destroy();
  await ui.stop();
  const all = METHODS.flatMap(([a, m]) => latencies.get(`${a}.${m}`)!);
  const rows = [...latencies].map(
    ([name, xs]) =>
      `    ${name.padEnd(15)} p50 ${ms(pct(xs, 50))}  p95 ${ms(pct(xs, 95))}  max ${ms(Math.max(...xs))} ms`,
  );
  return [
    `${path.basename(tree)}, ${streams} event streams (${Math.round(fed / SECONDS / 1024)} KB/s of events to them, ${starved} starved):`,
    `  all ${all.length} API calls: p50 ${ms(pct(all, 50))}  p95 ${ms(pct(all, 95))}  p99 ${ms(pct(all, 99))}  max ${ms(Math.max(...all))} ms`,
    ...rows,
  ].join('\n');
}

console.log(
  `${os.cpus().length} cores, load ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}; ${SECONDS} s a measure, calls one after another, 50 ms apart`,
);
for (const streams of STREAMS) {
  for (const tree of TREES) console.log(await measure(tree, streams));
}
process.exit(0);
