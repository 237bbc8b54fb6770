import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { ensureAppBuilt, RENDERER_NEED } from '../../main/cli/app-build/ensure-built.ts';
import { addressWithCode, codeInFragment } from '../../shared/api/session.ts';
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
  /** `http://127.0.0.1:P`: the page, which opens nothing without a code. */
  origin: string;
  /** The address it printed first (its code works once, within a minute). */
  printed: string;
  /**
   * A fresh address, as a person gets one: Enter pressed in the terminal, the new line it
   * prints. `route` opens a screen (`/gallery`).
   */
  newAddress(route?: string): Promise<string>;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** SIGINT, as Ctrl+C; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** `atelier ui` in a child process, as a person starts it; resolves once it prints its address. */
export async function startUi(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningUi> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'atelier.js'), 'ui', ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ATELIER_API_KEY: '', ...env },
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const addresses = () => [...out.matchAll(/Atelier is running at (\S+)\n/g)].map((m) => m[1]!);
  const nextAddress = (seen: number) =>
    new Promise<string>((ready, fail) => {
      const exited = (code: number | null) =>
        fail(new Error(`atelier ui exited with ${code}: ${err}`));
      const look = () => {
        const found = addresses()[seen];
        if (found === undefined) return;
        child.stdout!.off('data', look);
        child.off('exit', exited);
        ready(found);
      };
      child.once('exit', exited);
      child.stdout!.on('data', look);
      look();
    });
  const printed = await nextAddress(0);
  let asking = Promise.resolve('');
  return {
    origin: new URL(printed).origin,
    printed,
    newAddress(route) {
      asking = asking.then(() => {
        const seen = addresses().length;
        child.stdin!.write('\n');
        return nextAddress(seen);
      });
      return asking.then((address) => {
        const { code } = codeInFragment(new URL(address).hash);
        return route ? addressWithCode(new URL(address).origin, code!, route) : address;
      });
    },
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
