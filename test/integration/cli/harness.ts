import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunSummary } from '../../../main/cli/run/summary.ts';

export const bin = resolve(import.meta.dirname, '../../../bin/atelier.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliChild {
  child: ChildProcessWithoutNullStreams;
  /** Resolves with everything printed once the process has exited. */
  done: Promise<CliResult>;
  output(): { stdout: string; stderr: string };
}

/**
 * Starts `atelier …` in `cwd` with a clean environment: no ATELIER_API_KEY unless given, and
 * from its sources.
 * Asynchronous on purpose: the tests' simulator answers from this same process.
 */
export function startCli(args: string[], options: CliOptions): CliChild {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.ATELIER_API_KEY;
  delete env.ATELIER_GATEWAY_HEADERS;
  // the sources under test, whether or not a bundle of them is built (cli-bundle.test.ts)
  env.ATELIER_CLI_SOURCES = '1';
  Object.assign(env, options.env);
  if (options.key !== undefined) env.ATELIER_API_KEY = options.key;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), bin, ...args], {
    cwd: options.cwd,
    env,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<CliResult>((resolveDone) =>
    child.on('close', (code, signal) => resolveDone({ code, signal, stdout, stderr })),
  );
  return { child, done, output: () => ({ stdout, stderr }) };
}

export interface CliOptions {
  cwd: string;
  key?: string;
  /** More environment (ATELIER_GATEWAY_HEADERS, say). */
  env?: NodeJS.ProcessEnv;
  /** Flags for node before the script (a test's `--import` of a fault, say). */
  nodeArgs?: string[];
}

export function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  return startCli(args, options).done;
}

/** A temporary working folder with the given files; remove() deletes it. */
export function workspace(files: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-cli-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return {
    dir,
    path: (...parts: string[]) => join(dir, ...parts),
    /** File names in a library folder, sorted. */
    files: (...parts: string[]) => readdirSync(join(dir, ...parts)).sort(),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Parses the one JSON object `--json` prints on stdout. */
export function summaryOf(result: CliResult): RunSummary {
  return JSON.parse(result.stdout) as RunSummary;
}
