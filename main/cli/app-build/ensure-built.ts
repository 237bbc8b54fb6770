import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { newestOf, whyBuild, type SourceFile } from './staleness.ts';

/**
 * The app built from these sources when it is missing or stale, so that a fresh clone runs with
 * `npm ci` then `npm run ui -- --demo` or `npm start`. Run as a script (`npm start` does), it
 * brings the whole desktop app up to date.
 */

/** The project these sources are in: its out/ is where the build goes. */
export const PROJECT_ROOT = resolve(import.meta.dirname, '../../..');

/** What a host runs from out/, and the sources (folders or files) it is built from. */
export interface BuildNeed {
  outputs: readonly string[];
  sources: readonly string[];
}

// the build's own settings, and the packages bundled into the renderer
const BUILD_INPUTS = ['electron.vite.config.ts', 'package-lock.json'];

/** The browser host (`atelier ui`) serves the renderer. */
export const RENDERER_NEED: BuildNeed = {
  outputs: ['out/renderer/index.html'],
  sources: ['renderer', 'shared', ...BUILD_INPUTS],
};

/** The desktop app runs all three bundles. */
export const DESKTOP_NEED: BuildNeed = {
  outputs: ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'],
  sources: ['main', 'shared', 'renderer', ...BUILD_INPUTS],
};

export interface EnsureBuiltOptions {
  need: BuildNeed;
  /** Where the line saying a build runs goes (stderr: a host's stdout may be its output). */
  say: (line: string) => void;
  root?: string;
}

/**
 * Builds the app (`electron-vite build`, as `npm run build` does) when an output `need` names is
 * missing or older than its sources, saying so; does nothing when it is up to date. One build
 * at a time per project: a process that finds another building waits for it, then looks again.
 * Resolves true when it built; rejects with the build's last lines when it failed.
 */
export async function ensureAppBuilt(options: EnsureBuiltOptions): Promise<boolean> {
  const root = options.root ?? PROJECT_ROOT;
  if (!staleReason(root, options.need)) return false;
  const release = await buildLock(root);
  try {
    const reason = staleReason(root, options.need); // another process may have just built it
    if (!reason) return false;
    options.say(`Building the app first: ${reason} (npm run build)…`);
    const started = performance.now();
    await runBuild(root);
    options.say(`Built in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    return true;
  } finally {
    release();
  }
}

/** Why `need` must be built first, or null when its outputs are newer than its sources. */
export function staleReason(root: string, need: BuildNeed): string | null {
  const outputs = need.outputs.map((path) => ({ path, mtimeMs: mtimeOf(join(root, path)) }));
  return whyBuild(outputs, newestOf(sourceFiles(root, need.sources)));
}

function mtimeOf(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** Every file of the sources that exist (a copy without them has nothing to rebuild from). */
function* sourceFiles(root: string, sources: readonly string[]): Generator<SourceFile> {
  for (const source of sources) {
    const path = join(root, source);
    const mtimeMs = mtimeOf(path);
    if (mtimeMs === null) continue;
    if (statSync(path).isFile()) {
      yield { path: source, mtimeMs };
      continue;
    }
    for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = join(entry.parentPath, entry.name);
      const changed = mtimeOf(file); // null: removed since the listing (an editor's temp file)
      if (changed !== null) yield { path: relative(root, file), mtimeMs: changed };
    }
  }
}

/** `electron-vite build` in the project, its output kept for the error when it fails. */
async function runBuild(root: string): Promise<void> {
  let bin: string;
  try {
    const manifest = createRequire(join(root, 'package.json')).resolve(
      'electron-vite/package.json',
    );
    const { bin: bins } = JSON.parse(readFileSync(manifest, 'utf8')) as {
      bin: Record<string, string>;
    };
    bin = join(dirname(manifest), bins['electron-vite']!);
  } catch {
    throw new Error(
      'The app is not built, and electron-vite, which builds it, is not installed: run "npm ci", then again.',
    );
  }
  const output: string[] = [];
  const code = await new Promise<number | null>((done, fail) => {
    const child = spawn(process.execPath, [bin, 'build'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.on('error', fail);
    child.on('close', done);
  });
  if (code !== 0) {
    const tail = output.join('').trim().split('\n').slice(-30).join('\n');
    throw new Error(
      `The app could not be built ("npm run build" failed, exit code ${code}):\n${tail}`,
    );
  }
}

/** Held while building: out/.build-lock names the process; one left by a dead one is taken over. */
async function buildLock(root: string): Promise<() => void> {
  const lock = join(root, 'out', '.build-lock');
  mkdirSync(dirname(lock), { recursive: true });
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (!holderAlive(lock)) {
      rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`Another build has held ${lock} for 5 minutes: if none runs, remove it.`);
    }
    await sleep(200);
  }
}

function holderAlive(lock: string): boolean {
  let text: string;
  try {
    text = readFileSync(lock, 'utf8');
  } catch {
    return true; // just released: look again
  }
  // empty: being written this instant, unless it was left so by a crash
  if (text === '') return Date.now() - (mtimeOf(lock) ?? 0) < 10_000;
  const pid = Number(text);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, someone else's
  }
}

if (import.meta.main) {
  try {
    await ensureAppBuilt({ need: DESKTOP_NEED, say: (line) => process.stderr.write(`${line}\n`) });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}
