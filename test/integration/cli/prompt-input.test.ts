import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { StatusView } from '../../../main/cli/status/status-view.ts';
import { runCli, summaryOf, workspace } from './harness.ts';

let ws: ReturnType<typeof workspace>;
afterEach(() => ws?.remove());

const batches = async () =>
  (JSON.parse((await runCli(['status', '--json'], { cwd: ws.dir })).stdout) as StatusView).batches;

/** A refusal: exit 2, nothing on stdout, nothing imported. */
async function expectRefused(args: string[]) {
  const result = await runCli(args, { cwd: ws.dir });
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(await batches()).toEqual([]);
  return result;
}

describe('atelier run with prompt files that are not plain UTF-8', () => {
  it('runs a .txt saved by Notepad as "Unicode" (UTF-16 LE with a BOM): one job a line, no NUL', async () => {
    ws = workspace();
    const text = 'a red fox\r\na café at dawn\r\n';
    writeFileSync(
      ws.path('p.txt'),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
    );
    const result = await runCli(['run', 'p.txt', '--demo', '--size', '64x64', '--json'], {
      cwd: ws.dir,
    });
    expect(result.code).toBe(0);
    expect(summaryOf(result).jobs).toMatchObject({ succeeded: 2, total: 2 });
    expect(ws.files('atelier-library', 'p')).toEqual([
      '0001-a-red-fox.png',
      '0002-a-café-at-dawn.png',
    ]);
  });

  it('refuses invalid UTF-8 with its line number: exit 2, nothing imported', async () => {
    ws = workspace();
    writeFileSync(
      ws.path('p.txt'),
      Buffer.concat([Buffer.from('fine\nbad '), Buffer.from([0xff]), Buffer.from('\n')]),
    );
    const result = await expectRefused(['run', 'p.txt', '--demo']);
    expect(result.stderr).toMatch(/line 2: not valid UTF-8 text: save the file as UTF-8/);
    expect(result.stderr).toContain('nothing was imported');
  });

  it('refuses a NUL byte with its line number, printing it escaped, never raw', async () => {
    ws = workspace({ 'p.jsonl': '{"prompt":"a"}\n{"prompt":"b\u0000c"}\n' });
    const result = await expectRefused(['run', 'p.jsonl', '--demo']);
    expect(result.stderr).toMatch(/line 2: holds a NUL byte \(\\0\)/);
    expect(result.stderr).not.toContain('\u0000');
  });
});

describe('atelier run --max-prompt-chars', () => {
  it('refuses prompts over the limit with their lines, nothing imported; a higher limit lets them in', async () => {
    ws = workspace({ 'p.txt': `short\n${'a'.repeat(40)}\nfine\n${'b'.repeat(41)}\n` });
    const refused = await expectRefused(['run', 'p.txt', '--demo', '--max-prompt-chars', '39']);
    expect(refused.stderr).toContain('lines 2, 4: the prompt is longer than 39 characters');

    const run = await runCli(
      ['run', 'p.txt', '--demo', '--size', '64x64', '--max-prompt-chars', '41', '--json'],
      { cwd: ws.dir },
    );
    expect(run.code).toBe(0);
    expect(summaryOf(run).jobs).toMatchObject({ succeeded: 4 });
  });

  it('refuses a default-length breach too: 32,001 characters', async () => {
    ws = workspace({ 'p.txt': `${'c'.repeat(32_001)}\n` });
    const refused = await expectRefused(['run', 'p.txt', '--demo']);
    expect(refused.stderr).toContain('line 1: the prompt is longer than 32000 characters');
  });
});
