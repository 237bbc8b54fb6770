// The host process's event-loop delay while a latency-0 batch runs at full speed, with and
// without a client paging the gallery over HTTP: what decides whether a window on this
// process would stutter. Prints a table; figures go in docs/performance.md and the README.
//   npm run bench:host [-- --jobs 20000 --concurrency 32]
import { spawn } from 'node:child_process';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createBenchBatch, startBenchHost } from './bench-host.ts';

const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '32' },
  },
});
const JOBS = Number(values.jobs);
const CONCURRENCY = Number(values.concurrency);
/** The delay monitor's timer (ms). */
const RESOLUTION_MS = 10;
/** Jobs done before the measure starts: the start (import, first claims) is not the steady state. */
const WARM_UP = Math.min(1_000, Math.floor(JOBS / 10));

interface Figures {
  scenario: string;
  jobsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  client: { requests: number; p50: number; p99: number } | null;
}

async function scenario(name: string, withClient: boolean): Promise<Figures> {
  const bench = await startBenchHost(CONCURRENCY);
  const { service, api } = bench;
  try {
    const batch = await createBenchBatch(api, JOBS);
    const client = withClient ? startClient(bench.newAddress(), batch.id) : null;
    const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    let started = 0;
    let startedDone = 0;
    const finished = new Promise<number>((resolve) => {
      const stop = service.events.subscribe(null, ({ events }) => {
        for (const event of events) {
          if (event.type === 'progress') {
            const done = event.payload.downloads.done;
            if (!started && done >= WARM_UP) {
              started = performance.now();
              startedDone = done;
              delay.enable();
            }
          }
          if (event.type === 'batch.finished') {
            delay.disable();
            stop();
            resolve(event.payload.jobs.succeeded);
          }
        }
      });
    });
    await api.queue.resume();
    await finished;
    const seconds = (performance.now() - started) / 1000;
    // the histogram holds each timer's whole interval: the delay is what exceeds the resolution
    const ms = (ns: number) => Math.max(0, Math.round((ns - RESOLUTION_MS * 1e6) / 1e4) / 100);
    return {
      scenario: name,
      jobsPerSecond: Math.round((JOBS - startedDone) / seconds),
      p50: ms(delay.percentile(50)),
      p99: ms(delay.percentile(99)),
      max: ms(delay.max),
      client: client ? await client.stop() : null,
    };
  } finally {
    await bench.stop();
  }
}

function startClient(url: string, batchId: number) {
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, 'host-loop-client.ts'), url, String(batchId)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  return {
    stop: () =>
      new Promise<{ requests: number; p50: number; p99: number }>((resolve) => {
        child.once('exit', () => resolve(JSON.parse(out.trim()) as never));
        child.kill('SIGTERM');
      }),
  };
}

const results: Figures[] = [];
results.push(await scenario('engine only', false));
results.push(await scenario('engine + gallery client over HTTP', true));
console.log(
  `Host event-loop delay, ${JOBS} jobs (64x64, b64_json, thumbnails on), concurrency ${CONCURRENCY}, simulator latency 0 in its own process`,
);
console.log(
  'scenario                              jobs/s   p50 ms   p99 ms   max ms   client p50/p99 ms (requests)',
);
for (const r of results) {
  const client = r.client
    ? `${r.client.p50.toFixed(1)} / ${r.client.p99.toFixed(1)} (${r.client.requests})`
    : '-';
  console.log(
    `${r.scenario.padEnd(36)}  ${String(r.jobsPerSecond).padStart(6)}  ${r.p50.toFixed(2).padStart(7)}  ${r.p99.toFixed(2).padStart(7)}  ${r.max.toFixed(2).padStart(7)}   ${client}`,
  );
}
process.exit(0);
