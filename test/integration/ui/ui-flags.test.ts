import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startUi, type RunningUi } from '../../support/atelier-ui.ts';
import { pollUntil } from '../../support/poll-until.ts';
import { openSession } from '../../support/web-login.ts';

let dir: string;
let ui: RunningUi | null = null;

afterEach(async () => {
  await ui?.stop();
  ui = null;
  rmSync(dir, { recursive: true, force: true });
});

/** A fake `xdg-open` first on the PATH: it leaves a mark if anything tries to open a browser. */
function fakeOpener(): { env: NodeJS.ProcessEnv; opened: () => boolean } {
  const bin = path.join(dir, 'bin');
  const mark = path.join(dir, 'opened');
  mkdirSync(bin);
  for (const name of ['xdg-open', 'open', 'wslview']) {
    const file = path.join(bin, name);
    writeFileSync(file, `#!/bin/sh\necho "$@" > '${mark}'\n`);
    chmodSync(file, 0o755);
  }
  return { env: { PATH: `${bin}:${process.env.PATH}` }, opened: () => existsSync(mark) };
}

describe('atelier ui flags', () => {
  it('opens no browser when stdout is not a terminal', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-ui-flags-'));
    const opener = fakeOpener();
    ui = await startUi(['--demo', '--data', path.join(dir, 'data')], opener.env);
    // the browser would be opened right after the notice; give a spawned opener time to write
    await pollUntil(() => ui!.stderr().includes('Demo mode'), 'the demo notice');
    await new Promise((r) => setTimeout(r, 500));
    expect(opener.opened()).toBe(false);
  }, 60_000);

  it('with --gateway and no key: keeps the gateway as a profile and says how to give the key', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-ui-flags-'));
    const data = path.join(dir, 'data');
    ui = await startUi([
      '--gateway',
      'https://user:secret@gateway.example.com',
      '--no-open',
      '--data',
      data,
    ]);
    await pollUntil(() => ui!.stderr().includes('The queue is not running'), 'the notice');
    expect(ui.stderr()).toContain('No API key is set for the gateway "Command line"');
    expect(ui.stderr()).toContain('Enter the key in Settings, or set ATELIER_API_KEY');
    const saved = JSON.parse(readFileSync(path.join(data, 'settings.json'), 'utf8'));
    expect(saved.gateway).toEqual({ kind: 'remote', profile: 'Command line' });
    // credentials in the address are never kept
    expect(saved.profiles[0].baseUrl).toBe('https://gateway.example.com');
    expect(JSON.stringify(saved)).not.toContain('secret');
  }, 60_000);

  it('says a bad --gateway address is for the person to fix (exit 2), not a bug', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-ui-flags-'));
    const bin = path.resolve(import.meta.dirname, '../../../bin/atelier.js');
    const run = spawnSync(
      process.execPath,
      [bin, 'ui', '--gateway', 'not-a-url', '--no-open', '--data', path.join(dir, 'data')],
      {
        encoding: 'utf8',
      },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--gateway not-a-url');
    expect(run.stdout).toBe('');
  });

  it('keeps serving when stdin ends and the job is continued (SIGCONT); SIGUSR2 still asks', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-ui-flags-'));
    ui = await startUi(['--demo', '--no-open', '--data', path.join(dir, 'data')]);
    const hint = `press Enter here for a new one (or kill -USR2 ${ui.child.pid})`;
    await pollUntil(() => ui!.stderr().includes(hint), 'the hint');
    ui.child.stdin!.end();
    // (the end of stdin reaches the host's reader before the signal does: give it a moment)
    await new Promise((wait) => setTimeout(wait, 200));
    ui.child.kill('SIGCONT');
    ui.child.kill('SIGUSR2');
    await pollUntil(() => ui!.stdout().split('\n').length === 3, 'a second address');
    expect(ui.child.exitCode).toBe(null);
    expect(ui.stderr()).not.toContain('internal error');
    const printed = [...ui.stdout().matchAll(/Atelier is running at (\S+)/g)].map((m) => m[1]!);
    await expect(openSession(printed[1]!)).resolves.toMatchObject({ token: expect.any(String) });
  }, 60_000);

  it('prints a new address on Enter or SIGUSR2; each opens Atelier once', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-ui-flags-'));
    ui = await startUi(['--demo', '--no-open', '--data', path.join(dir, 'data')]);
    const hint = `press Enter here for a new one (or kill -USR2 ${ui.child.pid})`;
    await pollUntil(() => ui!.stderr().includes(hint), 'the hint');
    const onEnter = await ui.newAddress();
    ui.child.kill('SIGUSR2');
    await pollUntil(() => ui!.stdout().split('\n').length === 4, 'a third address');
    const printed = [...ui.stdout().matchAll(/Atelier is running at (\S+)/g)].map((m) => m[1]!);
    expect(printed[1]).toBe(onEnter);
    expect(new Set(printed).size).toBe(3);
    for (const address of printed) {
      expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#code=[\w-]{43}$/);
      await expect(openSession(address)).resolves.toMatchObject({ token: expect.any(String) });
      await expect(openSession(address)).rejects.toThrow(/already used/);
    }
  }, 60_000);
});
