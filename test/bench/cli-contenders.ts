import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
 * leave it), so that `atelier run` is measured as installed; says which one runs.
 */
export async function ensureCliBundle(root: string): Promise<void> {
  if (freshCliBundle(root, {})) {
    console.log('atelier run: the CLI bundle (out/cli, fresh).');
    return;
  }
  const built = await buildCliBundle(root);
  console.log(`atelier run: the CLI bundle, built now into ${built.folder}.`);
}
