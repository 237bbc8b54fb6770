import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { ensureAppBuilt, RENDERER_NEED } from '../../main/cli/app-build/ensure-built.ts';
import { launchChromium } from './browser.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/**
 * `atelier ui` serves out/renderer: built here (as `atelier ui` itself would) when `npm run build`
 * has not run yet or a source changed since, so a test never drives a stale build and the
 * children a test file starts never build at the same time.
 */
export async function ensureRendererBuilt(): Promise<void> {
  await ensureAppBuilt({ need: RENDERER_NEED, say: (line) => console.log(line) });
}

export interface RunningUi {
  url: string;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** SIGINT, as Ctrl+C; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** `atelier ui` in a child process, as a person starts it; resolves once it prints its address. */
export async function startUi(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningUi> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'atelier.js'), 'ui', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ATELIER_API_KEY: '', ...env },
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const url = await new Promise<string>((ready, fail) => {
    child.once('exit', (code) => fail(new Error(`atelier ui exited with ${code}: ${err}`)));
    child.stdout!.on('data', () => {
      const match = /Atelier is running at (\S+)\n/.exec(out);
      if (match) ready(match[1]!);
    });
  });
  return {
    url,
    child,
    stdout: () => out,
    stderr: () => err,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done(child.exitCode);
        child.once('exit', (code) => done(code));
        child.kill('SIGINT');
      }),
  };
}

/** Where the browser tests leave their screenshots (looked at, never compared). */
export const SCREENSHOTS = resolve(import.meta.dirname, '../../test-results/screenshots');

/** `atelier ui` against a gateway (a simulator process), its key given in the environment. */
export function startUiAgainst(
  gateway: { url: string; key: string },
  dataDir: string,
  libraryDir: string,
): Promise<RunningUi> {
  return startUi(['--gateway', gateway.url, '--no-open', '--data', dataDir, '--out', libraryDir], {
    ATELIER_API_KEY: gateway.key,
  });
}

/**
 * `atelier ui --demo` on a fresh data folder and library, and a headless Chromium: what every
 * browser test starts from. `stop` ends both and deletes the folders.
 */
export async function startDemoUi(
  name: string,
  args: string[] = [],
): Promise<{ dir: string; ui: RunningUi; browser: Browser; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), `atelier-${name}-`));
  const ui = await startUi([
    '--demo',
    '--no-open',
    '--data',
    join(dir, 'data'),
    '--out',
    join(dir, 'library'),
    ...args,
  ]);
  const browser = await launchChromium();
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    dir,
    ui,
    browser,
    async stop() {
      await browser.close();
      await ui.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
