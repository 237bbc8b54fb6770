/**
 * `npm run bench:cli`: `atelier run` against the hand-written script it must beat
 * (script-baseline.ts), side by side on one simulator: 1,000 prompts, 200 ms latency, 32 in
 * flight, images as links (each one downloaded). Both are whole processes timed from spawn to
 * exit, start-up included, and run in turns (A B A B …) so the machine's drift falls on both;
 * the figures are the medians, with each process's CPU time (all its threads, user and system:
 * less sensitive than wall time to what else the machine runs) and the load average.
 *
 *   npm run bench:cli                 5 rounds
 *   npm run bench:cli -- --rounds 9
 *   npm run bench:cli -- --other DIR  also another checkout's atelier (an older version), in
 *                                     the same turns: before and after, side by side
 *   npm run bench:cli -- --sources    also this checkout's atelier from its TypeScript sources
 *                                     (ATELIER_CLI_SOURCES=1), against its bundle
 *
 * This checkout's CLI bundle (out/cli) is built first when it is missing or stale.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { atelierRunArgs, ensureCliBundle, load, median, scriptArgs } from './cli-contenders.ts';
import { startSimulatorProcess } from './simulator-process.ts';

const root = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    jobs: { type: 'string', default: '1000' },
    'latency-ms': { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '32' },
    other: { type: 'string' },
    sources: { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const jobs = Number(values.jobs);
const latencyMs = Number(values['latency-ms']);
const concurrency = Number(values.concurrency);
const bound = (jobs / concurrency) * (latencyMs / 1000);

const dir = mkdtempSync(join(tmpdir(), 'atelier-cli-bench-'));
const prompts = join(dir, 'prompts.txt');
writeFileSync(
  prompts,
  Array.from({ length: jobs }, (_, i) => `a lighthouse in fog, study ${i}`).join('\n') + '\n',
);

/**
 * CPU time (user + system, ms) of this process's children that have been waited for: a
 * spawnSync'd process's own, all its threads included, once it has exited. Null without /proc.
 */
function reapedChildrenCpuMs(): number | null {
  try {
    // fields 16 and 17 of /proc/self/stat (cutime, cstime), in clock ticks (100 per second)
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}

interface Timed {
  seconds: number;
  /** The process's CPU time, ms (null where it cannot be read). */
  cpuMs: number | null;
  stdout: string;
}

function timed(args: string[], env: NodeJS.ProcessEnv): Timed {
  const cpuBefore = reapedChildrenCpuMs();
  const started = performance.now();
  const result = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = reapedChildrenCpuMs();
  const cpuMs = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
  if (result.status !== 0) {
    throw new Error(`${args.join(' ')} exited ${result.status}:\n${result.stderr}`);
  }
  return { seconds, cpuMs, stdout: result.stdout };
}

const simulator = await startSimulatorProcess(['--latency-ms', String(latencyMs)]);
const contest = { prompts, gateway: simulator.url, key: simulator.key, concurrency };
try {
  console.log(
    `${jobs} prompts, latency ${latencyMs} ms, ${concurrency} in flight, images as links: ` +
      `the bound is ${bound.toFixed(2)} s. ${rounds} rounds, atelier run then the script. ` +
      `Load average ${load()}.`,
  );
  await ensureCliBundle(root, values.other);
  type Contender = [name: string, checkout: string, env: NodeJS.ProcessEnv];
  const contenders: Contender[] = [['atelier run', root, {}]];
  if (values.sources)
    contenders.push(['atelier run (sources)', root, { ATELIER_CLI_SOURCES: '1' }]);
  if (values.other) contenders.push([`atelier run (${values.other})`, resolve(values.other), {}]);
  const results = new Map<string, Timed[]>([
    ...contenders.map(([name]) => [name, []] as [string, Timed[]]),
    ['script', []],
  ]);
  const said = (name: string, run: Timed) =>
    `${name} ${run.seconds.toFixed(2)} s` + (run.cpuMs === null ? '' : ` (CPU ${run.cpuMs} ms)`);
  for (let round = 1; round <= rounds; round++) {
    const line: string[] = [];
    for (const [name, checkout, env] of contenders) {
      const run = mkdtempSync(join(dir, 'run-'));
      const a = timed(atelierRunArgs(checkout, contest, run), {
        ATELIER_API_KEY: simulator.key,
        ...env,
      });
      const summary = JSON.parse(a.stdout) as { images: { onDisk: number } };
      if (summary.images.onDisk !== jobs) throw new Error(`${name} wrote ${summary.images.onDisk}`);
      results.get(name)!.push(a);
      line.push(said(name, a));
    }
    const b = timed(scriptArgs(contest), {});
    results.get('script')!.push(b);
    line.push(said('script', b));
    console.log(`  round ${round}: ${line.join(', ')}; load ${load()}`);
  }
  const script = median(results.get('script')!.map((r) => r.seconds));
  for (const [name, runs] of results) {
    const m = median(runs.map((r) => r.seconds));
    const share = name === 'script' ? '' : `, ${(script / m).toFixed(3)} of the script's speed`;
    const cpu = runs.every((r) => r.cpuMs !== null)
      ? `; CPU ${(median(runs.map((r) => r.cpuMs!)) / 1000).toFixed(2)} s`
      : '';
    console.log(
      `median ${name}: ${m.toFixed(2)} s, ${(bound / m).toFixed(3)} of the bound${share}${cpu}`,
    );
  }
  console.log('target: atelier run at least as fast as the script (≥ 1.000)');
} finally {
  simulator.stop();
  rmSync(dir, { recursive: true, force: true });
}
