/**
 * `npm run bench:cli-start`: how soon `atelier run` (1,000 prompts, 32 in flight, as bench:cli)
 * and the hand-written script (script-baseline.ts) send their first requests, measured from
 * spawn: when the first and the 32nd generation request reach the gateway, and how much CPU
 * the process had used by the 32nd (all its threads, and its main thread alone, from /proc).
 * The gateway is the simulator behind a proxy in this process that notes each arrival; the
 * process is stopped (SIGTERM) once its 32nd request arrived. Contenders run in turns (A B A B
 * …) after a first round that is not counted; the figures are medians.
 *
 *   npm run bench:cli-start                  9 rounds
 *   npm run bench:cli-start -- --other DIR   also another checkout's atelier, in the same turns
 *   npm run bench:cli-start -- --sources     also this checkout's from its TypeScript sources
 *
 * This checkout's CLI bundle (out/cli) is built first when it is missing or stale.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cliContenders, ensureCliBundle, load, median } from './cli-contenders.ts';
import { startGenerationProxy } from './generation-proxy.ts';
import { processCpuMs, startSimulatorProcess } from './simulator-process.ts';

const root = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '9' },
    jobs: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '32' },
    other: { type: 'string' },
    sources: { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const jobs = Number(values.jobs);
const concurrency = Number(values.concurrency);

const dir = mkdtempSync(join(tmpdir(), 'atelier-cli-start-'));
const prompts = join(dir, 'prompts.txt');
writeFileSync(
  prompts,
  Array.from({ length: jobs }, (_, i) => `a lighthouse in fog, study ${i}`).join('\n') + '\n',
);

/** CPU time (user + system, ms) of one thread of a process; null where /proc is missing. */
function threadCpuMs(pid: number, tid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

interface Start {
  /** ms from spawn to the first generation request's arrival. */
  firstMs: number;
  /** ms from spawn to the arrival of the request that fills the slots. */
  fullMs: number;
  /** The process's CPU (all threads) and its main thread's, ms, when the slots were full. */
  cpuMs: number | null;
  mainCpuMs: number | null;
}

const simulator = await startSimulatorProcess(['--latency-ms', '200']);
const target = new URL(simulator.url);
let onGeneration: (() => void) | null = null;
// Forwards everything to the simulator; a generation request is noted on arrival.
const proxy = await startGenerationProxy(target, { arrived: () => onGeneration?.() });
const gateway = proxy.url;
const contest = { prompts, gateway, key: simulator.key, concurrency };
await ensureCliBundle(root, values.other);

function measure(args: string[], env: NodeJS.ProcessEnv): Promise<Start> {
  return new Promise((done, fail) => {
    let arrived = 0;
    let firstMs = 0;
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    let result: Start | null = null;
    onGeneration = () => {
      arrived++;
      if (arrived === 1) firstMs = performance.now() - started;
      if (arrived !== concurrency) return;
      const pid = child.pid!;
      result = {
        firstMs,
        fullMs: performance.now() - started,
        cpuMs: processCpuMs(pid),
        mainCpuMs: threadCpuMs(pid, pid),
      };
      onGeneration = null;
      // (atelier pauses and exits cleanly: Node writes its compile cache at exit, as after a
      // real run, so the next start of that checkout is a warm one)
      child.kill('SIGTERM');
    };
    child.on('exit', (code) => {
      if (result) done(result);
      else
        fail(
          new Error(`${args.join(' ')} exited ${code} before ${concurrency} requests:\n${stderr}`),
        );
    });
  });
}

const contenders = cliContenders({
  root,
  dir,
  contest,
  measure,
  sources: values.sources,
  other: values.other,
});

const said = (start: Start) =>
  `first ${start.firstMs.toFixed(0)} ms, ${concurrency}th ${start.fullMs.toFixed(0)} ms` +
  (start.cpuMs === null ? '' : ` (CPU ${start.cpuMs} ms, main thread ${start.mainCpuMs} ms)`);
try {
  console.log(
    `${jobs} prompts, ${concurrency} in flight: from spawn to the first and the ${concurrency}th ` +
      `request. ${rounds} rounds. Load average ${load()}.`,
  );
  const results = new Map<string, Start[]>(contenders.map(([name]) => [name, []]));
  // a first round not counted: each checkout's compile cache written, as on a used machine
  for (let round = 0; round <= rounds; round++) {
    const line: string[] = [];
    for (const [name, run] of contenders) {
      const start = await run();
      if (round === 0) continue;
      results.get(name)!.push(start);
      line.push(`${name} ${said(start)}`);
    }
    if (round > 0) console.log(`  round ${round}: ${line.join('; ')}; load ${load()}`);
  }
  for (const [name, starts] of results) {
    const cpu = starts.every((s) => s.cpuMs !== null)
      ? `, CPU ${median(starts.map((s) => s.cpuMs!))} ms, main thread ` +
        `${median(starts.map((s) => s.mainCpuMs!))} ms`
      : '';
    console.log(
      `median ${name}: first request ${median(starts.map((s) => s.firstMs)).toFixed(0)} ms, ` +
        `${concurrency}th ${median(starts.map((s) => s.fullMs)).toFixed(0)} ms${cpu}`,
    );
  }
} finally {
  proxy.close();
  simulator.stop();
  rmSync(dir, { recursive: true, force: true });
}
