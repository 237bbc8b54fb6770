import { symlinkSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { StatusView } from '../../../main/cli/status/status-view.ts';
import { runCli, workspace } from './harness.ts';

// An internal error has its own exit code (70), apart from 1 (some jobs failed) and 2 (usage
// or configuration), so that a script can tell a crash from failed work.

const KEY = 'sk-atelier-internal-error-test-0001';

let ws: ReturnType<typeof workspace>;
afterEach(() => ws?.remove());

/**
 * A fault loaded before the CLI (`node --import`), raised once the CLI is up: Atelier has no
 * known crash left to provoke, and its handler must hold for the next one. `status` is over
 * by then; the timer keeps the process alive until it fires.
 */
function fault(name: string, raise: string): string {
  writeFileSync(ws.path(name), `setTimeout(() => { ${raise} }, 1500);\n`);
  return ws.path(name);
}

describe('an error no command handles', () => {
  it.each([
    ['an uncaught exception', `throw new Error('boom, sent with Bearer ${KEY}');`],
    ['an unhandled rejection', `void Promise.reject(new Error('boom, sent with Bearer ${KEY}'));`],
  ])('%s exits 70 with a one-line message, the stack, and never the key', async (_, raise) => {
    ws = workspace();
    const result = await runCli(['status', '--json'], {
      cwd: ws.dir,
      key: KEY,
      nodeArgs: ['--import', fault('fault.mjs', raise)],
    });

    expect(result.code).toBe(70);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toMatch(
      /^atelier: internal error: boom, sent with Bearer \S+\. This is a bug in Atelier; please report it with the details below\.$/,
    );
    expect(lines[1]).toBe('');
    expect(lines[2]).toMatch(/^Error: boom/);
    expect(result.stderr).toContain('fault.mjs');
    expect(result.stderr).not.toContain(KEY);
    expect(result.stderr).not.toContain('Node.js v'); // Node's own crash report
  });
});

describe('problems the person can fix keep exit code 2', () => {
  it('a folder given as the prompt file', async () => {
    ws = workspace({ 'prompts.csv': 'x' });
    const result = await runCli(['run', '.', '--demo'], { cwd: ws.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^atelier run: \. is a folder, not a prompt file\./);
  });

  // On Linux, /proc/self/mem opens but fails with EIO when read: a disk error, in effect.
  it.runIf(process.platform === 'linux').each([
    // the line reader (.txt, .jsonl)
    ['prompts.txt'],
    // the CSV parser's stream (its read error once went uncaught)
    ['prompts.csv'],
  ])('a prompt file that cannot be read (%s): nothing imported', async (name) => {
    ws = workspace();
    symlinkSync('/proc/self/mem', ws.path(name));
    const result = await runCli(['run', name, '--demo', '--json'], { cwd: ws.dir, key: KEY });

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `atelier run: Cannot read the prompt file ${name} (EIO: i/o error, read); nothing was ` +
        'imported. Check that it is a readable file and run again.\n',
    );
    const status = await runCli(['status', '--json'], { cwd: ws.dir });
    expect(status.code).toBe(0);
    expect((JSON.parse(status.stdout) as StatusView).batches).toEqual([]);
  });
});
