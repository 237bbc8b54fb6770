import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import type { StatusView } from '../../../main/cli/status/status-view.ts';
import {
  canMount,
  fillDisk,
  mountTmpfs,
  remount,
  mountTitle,
  unmountAll,
} from '../../support/mounts.ts';
import { runCli, startCli, summaryOf, workspace, type CliResult } from './harness.ts';
import { pollUntil } from '../../support/poll-until.ts';

// Disks and data folders that fail: each case ends with a message that says what is wrong and
// what to do (exit 2 when nothing could start, 1 when the queue stopped on the problem), never
// a stack trace or "this is a bug" (70), and no paid work lost.

let ws: ReturnType<typeof workspace> | undefined;
let gateway: RunningGateway | undefined;
afterEach(async () => {
  unmountAll();
  ws?.remove();
  ws = undefined;
  await gateway?.close();
  gateway = undefined;
});

const STACK = /\n\s+at /;

function expectClearRefusal(result: CliResult, ...mentions: Array<string | RegExp>) {
  expect(result.code, result.stderr).toBe(2);
  for (const mention of mentions) {
    if (typeof mention === 'string') expect(result.stderr).toContain(mention);
    else expect(result.stderr).toMatch(mention);
  }
  expect(result.stderr).not.toMatch(STACK);
  expect(result.stderr).not.toContain('internal error');
}

const prompts = (count: number) =>
  Array.from({ length: count }, (_, i) => `prompt number ${i + 1}`).join('\n') + '\n';

async function simulator(latencyMs = 0) {
  gateway = await startGateway({ latencyMs });
  return gateway;
}

const runArgs = (gw: RunningGateway, ...more: string[]) => [
  'run',
  'p.txt',
  '--gateway',
  gw.url,
  '--model',
  'flux-schnell',
  '--size',
  '64x64',
  ...more,
];

describe('a library folder that cannot be used is refused before any request (exit 2)', () => {
  it('--out names a file', async () => {
    const gw = await simulator();
    ws = workspace({ 'p.txt': prompts(2), 'not-a-folder': 'x' });
    const result = await runCli(runArgs(gw, '--out', 'not-a-folder'), {
      cwd: ws.dir,
      key: gw.key,
    });
    expectClearRefusal(result, ws.path('not-a-folder'), 'is a file', '--out DIR');
    expect(gw.ledger.entries()).toHaveLength(0);
    // nothing imported: the same command runs once the folder is fixed
    const status = JSON.parse((await runCli(['status', '--json'], { cwd: ws.dir })).stdout);
    expect((status as StatusView).batches).toEqual([]);
  });

  it.runIf(canMount)(mountTitle('--out on a read-only volume'), async () => {
    const gw = await simulator();
    ws = workspace({ 'p.txt': prompts(2) });
    mountTmpfs(ws.path('ro'), '1m', { readOnly: true });
    const result = await runCli(runArgs(gw, '--out', 'ro/library'), {
      cwd: ws.dir,
      key: gw.key,
    });
    expectClearRefusal(result, ws.path('ro', 'library'), /read-only/, '--out DIR');
    expect(gw.ledger.entries()).toHaveLength(0);
  });

  it.runIf(canMount)(
    mountTitle('resume, when the saved library has become read-only'),
    async () => {
      const gw = await simulator();
      ws = workspace({ 'p.txt': prompts(2) });
      mountTmpfs(ws.path('lib'), '1m');
      const first = await runCli(runArgs(gw, '--out', 'lib', '--json'), {
        cwd: ws.dir,
        key: gw.key,
      });
      expect(first.code).toBe(0);
      const charged = gw.ledger.entries().length;
      remount(ws.path('lib'), 'ro');
      const result = await runCli(['resume'], { cwd: ws.dir, key: gw.key });
      expectClearRefusal(result, ws.path('lib'), /read-only/);
      expect(gw.ledger.entries()).toHaveLength(charged);
    },
  );
});

describe.runIf(canMount)(
  mountTitle('the data folder on a disk that fills up mid-run (a small tmpfs)'),
  () => {
    it('stops sending, keeps what was received, says so in one message (exit 1); resume after freeing space finishes, each prompt generated once', async () => {
      const count = 60;
      const gw = await simulator(30);
      ws = workspace({ 'p.txt': prompts(count) });
      const data = ws.path('data');
      mountTmpfs(data, '8m');
      const run = startCli(
        runArgs(gw, '--data', 'data', '--out', 'lib', '--response-format', 'b64_json'),
        { cwd: ws.dir, key: gw.key },
      );
      await pollUntil(() => gw.ledger.entries().length >= 10, 'ten answers are in', {
        timeoutMs: 30_000,
      });
      const filler = fillDisk(data);
      const result = await run.done;
      const output = result.stdout + result.stderr;
      if (process.env.SHOW_OUTPUT) console.log(output);
      expect(result.code, output).toBe(1);
      expect(output).not.toMatch(STACK);
      expect(output).not.toContain('internal error');
      expect(output).toContain(`the data folder ${data} is full`);
      expect(output).toContain('atelier resume --data data');
      const charged = gw.ledger.entries().length;
      expect(charged).toBeLessThan(count);

      rmSync(filler);
      const resumed = await runCli(['resume', '--data', 'data', '--json'], {
        cwd: ws.dir,
        key: gw.key,
      });
      expect(resumed.code, resumed.stderr).toBe(0);
      const summary = summaryOf(resumed);
      expect(summary.jobs).toMatchObject({ total: count, succeeded: count });
      expect(summary.images.onDisk).toBe(count);
      // each prompt generated once: what was answered while the disk was full was not resent
      expect(gw.ledger.entries()).toHaveLength(count);
      expect(ws.files('lib', 'p')).toHaveLength(count);
    }, 60_000);
  },
);

describe('a data folder that cannot be used (exit 2, never "a bug")', () => {
  it.runIf(canMount)(
    mountTitle('on a read-only volume: status still reads it; run and resume refuse'),
    async () => {
      ws = workspace({ 'p.txt': prompts(1) });
      mountTmpfs(ws.path('ro'), '2m');
      const first = await runCli(['run', '../p.txt', '--demo', '--data', 'data', '--json'], {
        cwd: ws.path('ro'),
      });
      expect(first.code, first.stderr).toBe(0);
      remount(ws.path('ro'), 'ro');
      const data = ws.path('ro', 'data');

      const status = await runCli(['status', '--data', data, '--json'], { cwd: ws.dir });
      expect(status.code, status.stderr).toBe(0);
      const view = JSON.parse(status.stdout) as StatusView;
      expect(view.batches).toHaveLength(1);
      expect(view.batches[0]!.jobs).toMatchObject({ succeeded: 1 });
      const human = await runCli(['status', '--data', data], { cwd: ws.dir });
      expect(human.code).toBe(0);
      expect(human.stdout).toContain('1 succeeded');
      expect(human.stderr).toContain(`the data folder ${data} is read-only`);

      for (const command of [
        ['resume', '--data', data],
        ['run', 'p.txt', '--demo', '--data', data],
      ]) {
        const result = await runCli(command, { cwd: ws.dir });
        expectClearRefusal(result, data, /read-only/, '--data DIR');
      }
    },
  );

  it.runIf(canMount)(mountTitle('--data under a read-only parent'), async () => {
    ws = workspace({ 'p.txt': prompts(1) });
    mountTmpfs(ws.path('ro'), '1m', { readOnly: true });
    const data = ws.path('ro', 'new-data');
    const result = await runCli(['run', 'p.txt', '--demo', '--data', data], { cwd: ws.dir });
    expectClearRefusal(result, data, /read-only/, '--data DIR');
  });

  it.each([
    ['random bytes', () => randomBytesOf(16 * 1024)],
    ['an SQLite header over random bytes', () => withSqliteHeader(randomBytesOf(16 * 1024))],
  ])('a database file of %s', async (_, content) => {
    ws = workspace({ 'p.txt': prompts(1) });
    mkdirSync(ws.path('.atelier-data'));
    const file = ws.path('.atelier-data', 'atelier.db');
    writeFileSync(file, content());
    const before = readFileSync(file);
    for (const command of [['status'], ['resume', '--demo'], ['run', 'p.txt', '--demo']]) {
      const result = await runCli(command, { cwd: ws.dir });
      expectClearRefusal(result, file, /not an Atelier database|damaged/, '--data DIR');
    }
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('a database file cut short (its pages missing)', async () => {
    ws = workspace({ 'p.txt': prompts(3) });
    expect((await runCli(['run', 'p.txt', '--demo'], { cwd: ws.dir })).code).toBe(0);
    const file = ws.path('.atelier-data', 'atelier.db');
    const whole = readFileSync(file);
    writeFileSync(file, whole.subarray(0, Math.floor(whole.length / 3)));
    copyFileSync(file, join(ws.dir, 'cut.db'));
    for (const command of [['status'], ['resume'], ['run', 'p.txt', '--demo']]) {
      const result = await runCli(command, { cwd: ws.dir });
      expectClearRefusal(result, file, /damaged/, 'Restore it from a backup');
    }
    expect(readFileSync(file).equals(readFileSync(join(ws.dir, 'cut.db')))).toBe(true);
  });
});

function randomBytesOf(size: number): Buffer {
  // deterministic "random": a test that fails, fails the same way again
  const bytes = Buffer.alloc(size);
  let x = 0x2545f491;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

function withSqliteHeader(bytes: Buffer): Buffer {
  Buffer.from('SQLite format 3\0', 'latin1').copy(bytes, 0);
  return bytes;
}
