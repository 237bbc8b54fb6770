/**
 * `npm run bench:cli-slots`: where a whole `atelier run` (1,000 prompts, 32 in flight, as
 * bench:cli) and the hand-written script (script-baseline.ts) spend their time, seen from the
 * gateway: a proxy in front of the simulator notes each generation request's arrival and each
 * answer's end. The slot wait is the time from an answer's end to the next request's arrival
 * (answers and requests matched in order: the n-th answer's slot sends request n + 32); the
 * end is from the last generation answer to the process's exit (the images' links point at
 * the simulator itself, so the downloads are not seen here). Contenders run in turns
 * (A B A B …); the figures are medians of each run's mean, and of the runs. "steady" is the
 * mean wait from the 4th wave on, the first waves' start-up left out; the CPU is each process's
 * main thread's and all its threads' (thread-cpu-probe.ts), less sensitive to the load than
 * the waits.
 *
 *   npm run bench:cli-slots -- --rounds 5 [--other DIR] [--sources] [--cpu-prof DIR]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cliContenders, ensureCliBundle, load, mean, median } from './cli-contenders.ts';
import { startGenerationProxy } from './generation-proxy.ts';
import { startSimulatorProcess } from './simulator-process.ts';

const root = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    jobs: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '32' },
    other: { type: 'string' },
    sources: { type: 'boolean', default: false },
    // each atelier run's CPU profile written there (Node's --cpu-prof)
    'cpu-prof': { type: 'string' },
  },
});
const rounds = Number(values.rounds);
/** The line thread-cpu-probe.ts writes at each child's exit starts with it. */
const THREAD_CPU_MARK = 'thread-cpu:';
const jobs = Number(values.jobs);
const concurrency = Number(values.concurrency);

const dir = mkdtempSync(join(tmpdir(), 'atelier-cli-slots-'));
const prompts = join(dir, 'prompts.txt');
writeFileSync(
  prompts,
  Array.from({ length: jobs }, (_, i) => `a lighthouse in fog, study ${i}`).join('\n') + '\n',
);

interface Run {
  /** ms from spawn to the first generation request's arrival. */
  firstMs: number;
  /** Mean and median ms from an answer's end to the arrival of the request taking its slot. */
  slotMeanMs: number;
  slotMedianMs: number;
  /**
   * Mean slot wait of the steady state: the requests of the 4th wave (requests 3 × concurrency
   * onwards) to the end, leaving out the first waves' start-up (JIT warming, first connections).
   */
  slotSteadyMs: number;
  /** CPU ms the process's main thread, and all its threads, used (thread-cpu-probe.ts). */
  mainCpuMs: number;
  /** Of which in the kernel (system calls: the event loop's polls, file system, sockets). */
  mainSystemMs: number;
  cpuMs: number;
  /** ms from the last generation answer's end to the process's exit (its download, the end). */
  endMs: number;
  wallMs: number;
}

const simulator = await startSimulatorProcess(['--latency-ms', '200']);
const target = new URL(simulator.url);
let arrivals: number[] = [];
let answered: number[] = [];
const proxy = await startGenerationProxy(
  target,
  {
    arrived: () => arrivals.push(performance.now()),
    answered: () => answered.push(performance.now()),
  },
  { keepAliveMs: 60_000 },
);
const gateway = proxy.url;
const contest = { prompts, gateway, key: simulator.key, concurrency };
await ensureCliBundle(root, values.other);

function measure(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  arrivals = [];
  answered = [];
  return new Promise((done, fail) => {
    const started = performance.now();
    const probe = resolve(import.meta.dirname, 'thread-cpu-probe.ts');
    const child = spawn(process.execPath, ['--import', probe, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('exit', (code) => {
      const exited = performance.now();
      if (code !== 0 || arrivals.length < jobs) {
        return fail(new Error(`${args.join(' ')} exited ${code}:\n${stderr}`));
      }
      const waits: number[] = [];
      for (let i = 0; i + concurrency < arrivals.length; i++) {
        waits.push(arrivals[i + concurrency]! - answered[i]!);
      }
      // waits[i] is the wait of request i + concurrency: the 4th wave starts at 3 × concurrency
      const steady = waits.slice(2 * concurrency);
      const cpuLine = stderr.split('\n').find((line) => line.startsWith(THREAD_CPU_MARK));
      const cpu = JSON.parse(cpuLine!.slice(THREAD_CPU_MARK.length)) as {
        main: number;
        all: number;
        mainSystem: number;
      };
      done({
        firstMs: arrivals[0]! - started,
        slotMeanMs: mean(waits),
        slotMedianMs: median(waits),
        slotSteadyMs: mean(steady),
        mainCpuMs: cpu.main,
        mainSystemMs: cpu.mainSystem,
        cpuMs: cpu.all,
        endMs: exited - answered.at(-1)!,
        wallMs: exited - started,
      });
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
  nodeArgs: () => {
    const prof = values['cpu-prof'];
    return prof ? ['--cpu-prof', '--cpu-prof-dir', resolve(prof)] : [];
  },
});

const said = (run: Run) =>
  `first ${run.firstMs.toFixed(0)} ms, slot wait mean ${run.slotMeanMs.toFixed(2)} ` +
  `median ${run.slotMedianMs.toFixed(2)} steady ${run.slotSteadyMs.toFixed(2)} ms, end ${run.endMs.toFixed(1)} ms, ` +
  `wall ${(run.wallMs / 1000).toFixed(2)} s, CPU main thread ${run.mainCpuMs.toFixed(0)} ms ` +
  `(system ${run.mainSystemMs.toFixed(0)}) ` +
  `of ${run.cpuMs.toFixed(0)}`;
try {
  console.log(`${jobs} prompts, ${concurrency} in flight, ${rounds} rounds. Load ${load()}.`);
  const results = new Map<string, Run[]>(contenders.map(([name]) => [name, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const [name, run] of contenders) {
      const result = await run();
      results.get(name)!.push(result);
      console.log(`  round ${round} ${name}: ${said(result)}; load ${load()}`);
    }
  }
  for (const [name, list] of results) {
    console.log(
      `median ${name}: first ${median(list.map((r) => r.firstMs)).toFixed(0)} ms, slot wait ` +
        `mean ${median(list.map((r) => r.slotMeanMs)).toFixed(2)} median ` +
        `${median(list.map((r) => r.slotMedianMs)).toFixed(2)} steady ` +
        `${median(list.map((r) => r.slotSteadyMs)).toFixed(2)} ms, end ` +
        `${median(list.map((r) => r.endMs)).toFixed(1)} ms, wall ` +
        `${(median(list.map((r) => r.wallMs)) / 1000).toFixed(2)} s, CPU main thread ` +
        `${median(list.map((r) => r.mainCpuMs)).toFixed(0)} ms of ` +
        `${median(list.map((r) => r.cpuMs)).toFixed(0)}`,
    );
  }
} finally {
  proxy.close();
  simulator.stop();
  rmSync(dir, { recursive: true, force: true });
}
