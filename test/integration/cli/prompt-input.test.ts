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
      '0001-a-red-fox-flux-schnell-64x64.png',
      '0002-a-café-at-dawn-flux-schnell-64x64.png',
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
    // the service's words say no flag; the command line adds its own
    expect(refused.stderr).toContain(
      'Raise the longest prompt accepted with --max-prompt-chars N.',
    );

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

describe('flag and file errors say what is wrong, exit 2, and print no control character', () => {
  it.each([
    ['-1', '-1'],
    ['0', '0'],
    ['1.5', '1.5'],
    ['0x10', '0x10'],
    ['', ''],
  ])('--concurrency %j names the flag and the valid range', async (value, shown) => {
    ws = workspace({ 'p.txt': 'a fox\n' });
    const result = await expectRefused(['run', 'p.txt', '--demo', '--concurrency', value]);
    expect(result.stderr).toContain(
      `--concurrency must be a whole number from 1 to 1024 (got "${shown}").`,
    );
  });

  it('a negative value for any number flag is read as its value, not as a flag', async () => {
    ws = workspace({ 'p.txt': 'a fox\n' });
    for (const [flag, range] of [
      ['--rpm', '1 to 1000000'],
      ['--n', '1 to 10'],
      ['--seed', '0 to 4294967295'],
      ['--max-prompt-chars', '1 to 10000000'],
    ]) {
      const result = await expectRefused(['run', 'p.txt', '--demo', flag!, '-5']);
      expect(result.stderr).toContain(`${flag} must be a whole number from ${range} (got "-5").`);
    }
  });

  it.each([
    ['prompt,prompt\na,b\n', 'prompt'],
    ['prompt,model,size,Model\nx,flux-schnell,64x64,dall-e-3\n', 'model'],
    ['Prompt, seed ,SEED\nx,1,2\n', 'seed'],
  ])('refuses a CSV whose header names a column twice (%j)', async (csv, column) => {
    ws = workspace({ 'p.csv': csv });
    const result = await expectRefused(['run', 'p.csv', '--demo']);
    expect(result.stderr).toContain(`line 1: the header row has the column "${column}" twice`);
  });

  // eslint-disable-next-line no-control-regex
  const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

  it('escapes control characters quoted from a prompt file', async () => {
    ws = workspace({
      'p.jsonl': '{"prompt":"ok"}\n\u001b[2Jnot json\u0007\n',
      'q.csv': 'prompt,size\nx,64x\u001b[31m64\u0001\n',
    });
    const jsonl = await expectRefused(['run', 'p.jsonl', '--demo']);
    expect(jsonl.stderr).toMatch(/line 2: not valid JSON/);
    expect(jsonl.stderr).toContain('\\u001b[2J');
    expect(jsonl.stderr).not.toMatch(CONTROL);

    const csv = await expectRefused(['run', 'q.csv', '--demo']);
    expect(csv.stderr).toMatch(/line 2: /);
    expect(csv.stderr).toContain('64x\\u001b[31m64\\u0001');
    expect(csv.stderr).not.toMatch(CONTROL);
  });

  it('escapes control characters quoted from arguments', async () => {
    ws = workspace({ 'p.txt': 'a fox\n' });
    const size = await expectRefused(['run', 'p.txt', '--demo', '--size', '64\u0001x64']);
    expect(size.stderr).toContain('(got "64\\u0001x64")');
    const file = await expectRefused(['run', 'p\u001b[31m.xlsx', '--demo']);
    expect(file.stderr).toContain('p\\u001b[31m.xlsx');
    const flag = await expectRefused(['run', 'p.txt', '--demo', '--bogus\u0007']);
    expect(flag.stderr).toContain('--bogus\\u0007');
    for (const result of [size, file, flag]) expect(result.stderr).not.toMatch(CONTROL);
  });
});
