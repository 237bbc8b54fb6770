/**
 * `npm run bench:cli`: `atelier run` against the hand-written script it must beat
 * (script-baseline.ts), side by side on one simulator: 1,000 prompts, 200 ms latency, 32 in
 * flight, images as links (each one downloaded). Both are whole processes timed from spawn to
 * exit, start-up included, and run in turns (A B A B …) so the machine's drift falls on both;
 * the figures are the medians.
 *
 *   npm run bench:cli                 5 rounds
 *   npm run bench:cli -- --rounds 9
 *   npm run bench:cli -- --other DIR  also another checkout's atelier (an older version), in
 *                                     the same turns: before and after, side by side
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startSimulatorProcess } from './simulator-process.ts';

const root = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    jobs: { type: 'string', default: '1000' },
    'latency-ms': { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '32' },
    other: { type: 'string' },
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

function timed(args: string[], env: NodeJS.ProcessEnv): { seconds: number; stdout: string } {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) {
    throw new Error(`${args.join(' ')} exited ${result.status}:\n${result.stderr}`);
  }
  return { seconds, stdout: result.stdout };
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const simulator = await startSimulatorProcess(['--latency-ms', String(latencyMs)]);
try {
  console.log(
    `${jobs} prompts, latency ${latencyMs} ms, ${concurrency} in flight, images as links: ` +
      `the bound is ${bound.toFixed(2)} s. ${rounds} rounds, atelier run then the script.`,
  );
  const contenders: Array<[string, string]> = [
    ['atelier run', root],
    ...(values.other
      ? [[`atelier run (${values.other})`, resolve(values.other)] as [string, string]]
      : []),
  ];
  const seconds = new Map<string, number[]>([
    ...contenders.map(([name]) => [name, []] as [string, number[]]),
    ['script', []],
  ]);
  for (let round = 1; round <= rounds; round++) {
    const line: string[] = [];
    for (const [name, checkout] of contenders) {
      const run = mkdtempSync(join(dir, 'run-'));
      const a = timed(
        [
          join(checkout, 'bin/atelier.js'),
          'run',
          prompts,
          '--gateway',
          simulator.url,
          '--model',
          'flux-schnell',
          '--size',
          '64x64',
          '--concurrency',
          String(concurrency),
          '--data',
          join(run, 'data'),
          '--out',
          join(run, 'library'),
          '--json',
        ],
        { ATELIER_API_KEY: simulator.key },
      );
      const summary = JSON.parse(a.stdout) as { images: { onDisk: number } };
      if (summary.images.onDisk !== jobs) throw new Error(`${name} wrote ${summary.images.onDisk}`);
      seconds.get(name)!.push(a.seconds);
      line.push(`${name} ${a.seconds.toFixed(2)} s`);
    }
    const b = timed(
      [
        join(root, 'test/bench/script-baseline.ts'),
        '--gateway',
        simulator.url,
        '--key',
        simulator.key,
        '--prompts',
        prompts,
        '--concurrency',
        String(concurrency),
      ],
      {},
    );
    seconds.get('script')!.push(b.seconds);
    line.push(`script ${b.seconds.toFixed(2)} s`);
    console.log(`  round ${round}: ${line.join(', ')}`);
  }
  const script = median(seconds.get('script')!);
  for (const [name, list] of seconds) {
    const m = median(list);
    const share = name === 'script' ? '' : `, ${(script / m).toFixed(3)} of the script's speed`;
    console.log(
      `median ${name}: ${m.toFixed(2)} s, ${(bound / m).toFixed(3)} of the bound${share}`,
    );
  }
  console.log('target: atelier run at least as fast as the script (≥ 1.000)');
} finally {
  simulator.stop();
  rmSync(dir, { recursive: true, force: true });
}
