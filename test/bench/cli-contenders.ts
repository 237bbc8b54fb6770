import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freshCliBundle } from '../../bin/cli-bundle.js';
import { buildCliBundle } from '../../main/cli/bundle/build-cli-bundle.ts';

/**
 * The two sides of bench:cli and bench:cli-start: `atelier run` from a checkout, and the
 * hand-written script (script-baseline.ts), each given the same prompts, gateway and slots.
 */
export interface Contest {
  prompts: string;
  gateway: string;
  key: string;
  concurrency: number;
}

/** `atelier run`'s arguments, from `checkout`, writing its data and library under `run`. */
export function atelierRunArgs(checkout: string, contest: Contest, run: string): string[] {
  return [
    join(checkout, 'bin/atelier.js'),
    'run',
    contest.prompts,
    '--gateway',
    contest.gateway,
    '--model',
    'flux-schnell',
    '--size',
    '64x64',
    '--concurrency',
    String(contest.concurrency),
    '--data',
    join(run, 'data'),
    '--out',
    join(run, 'library'),
    '--json',
    // past the confirmation threshold (500 requests) since the spend ledger; a checkout older
    // than it has no such flag
    ...(existsSync(join(checkout, 'main/cli/spend.ts')) ? ['--yes'] : []),
  ];
}

/** The script's arguments. */
export function scriptArgs(contest: Contest): string[] {
  return [
    resolve(import.meta.dirname, 'script-baseline.ts'),
    '--gateway',
    contest.gateway,
    '--key',
    contest.key,
    '--prompts',
    contest.prompts,
    '--concurrency',
    String(contest.concurrency),
  ];
}

/**
 * This checkout's CLI bundle, built when missing or stale (as `npm ci` or `npm run build`
 * leave it), so that `atelier run` is measured as installed; says which one runs. `other`
 * (--other) gets the same from its own code: a bundle counted stale would silently run that
 * version from its sources (a hard-linked copy of node_modules changes every package.json's
 * ctime, which is enough).
 */
export async function ensureCliBundle(root: string, other?: string): Promise<void> {
  if (freshCliBundle(root, {})) {
    console.log('atelier run: the CLI bundle (out/cli, fresh).');
  } else {
    const built = await buildCliBundle(root);
    console.log(`atelier run: the CLI bundle, built now into ${built.folder}.`);
  }
  if (other) ensureOtherCliBundle(resolve(other));
}

function ensureOtherCliBundle(checkout: string): void {
  const check = join(checkout, 'bin/cli-bundle.js');
  const build = join(checkout, 'main/cli/bundle/build-cli-bundle.ts');
  if (!existsSync(check) || !existsSync(build)) {
    console.log(`${checkout}: no CLI bundle in that version, it runs from its sources.`);
    return;
  }
  // (that checkout's own freshness rule and build, in a process of their own)
  const fresh = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { freshCliBundle } from ${JSON.stringify(pathToFileURL(check).href)};` +
        `process.exit(freshCliBundle(${JSON.stringify(checkout)}, {}) ? 0 : 1);`,
    ],
    { stdio: 'inherit' },
  );
  if (fresh.status === 0) {
    console.log(`${checkout}: its CLI bundle (fresh).`);
    return;
  }
  const built = spawnSync(process.execPath, [build], { cwd: checkout, encoding: 'utf8' });
  if (built.status !== 0) {
    throw new Error(`Could not build the CLI bundle of ${checkout}:\n${built.stderr}`);
  }
  console.log(`${checkout}: its CLI bundle was stale, built now.`);
}

/** How a bench measures one process: its Node arguments and its environment. */
export type Measure<T> = (args: string[], env: NodeJS.ProcessEnv) => Promise<T>;

/**
 * The contenders of a round, in the order they run: this checkout's `atelier run` (its bundle),
 * the same from its sources (`sources`), another checkout's (`other`), then the script. Each
 * `atelier run` gets a fresh data folder under `dir`, removed after it; `nodeArgs` go before
 * its script (a CPU profile's flags).
 */
export function cliContenders<T>(options: {
  root: string;
  dir: string;
  contest: Contest;
  measure: Measure<T>;
  sources?: boolean;
  other?: string;
  nodeArgs?: () => string[];
}): Array<[string, () => Promise<T>]> {
  const { root, dir, contest, measure } = options;
  const atelier =
    (checkout: string, env: NodeJS.ProcessEnv = {}) =>
    async () => {
      const run = mkdtempSync(join(dir, 'run-'));
      try {
        const node = options.nodeArgs?.() ?? [];
        return await measure([...node, ...atelierRunArgs(checkout, contest, run)], {
          ATELIER_API_KEY: contest.key,
          ...env,
        });
      } finally {
        rmSync(run, { recursive: true, force: true });
      }
    };
  const contenders: Array<[string, () => Promise<T>]> = [['atelier run', atelier(root)]];
  if (options.sources) {
    contenders.push(['atelier run (sources)', atelier(root, { ATELIER_CLI_SOURCES: '1' })]);
  }
  if (options.other) {
    contenders.push([`atelier run (${options.other})`, atelier(resolve(options.other))]);
  }
  contenders.push(['script', () => measure(scriptArgs(contest), {})]);
  return contenders;
}

/** The average of a run's values (a slot's waits). */
export const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;

/** The middle value (the upper one of an even count): the figure the CLI benches print. */
export const median = (list: number[]) =>
  [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

/** The machine's load averages (1, 5 and 15 minutes), as each bench's lines print them. */
export const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
