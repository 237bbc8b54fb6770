import Database from 'better-sqlite3';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StatusView } from '../../../main/cli/status/status-view.ts';
import { runCli, summaryOf, workspace } from './harness.ts';

const TINY_CSV = `prompt,size,n,seed,output_format
A red fox,64x64,1,7,png
Two blue birds,64x48,2,8,jpeg
A green hill,48x64,1,,webp
`;

const SAMPLE = resolve(import.meta.dirname, '../../../samples/demo-prompts.csv');
const PNG = [0x89, 0x50, 0x4e, 0x47];
const JPEG = [0xff, 0xd8, 0xff];

let ws: ReturnType<typeof workspace>;
afterEach(() => ws?.remove());

describe('atelier run --demo', () => {
  it('writes every image under its predictable name and reports them in one JSON summary', async () => {
    ws = workspace({ 'tiny.csv': TINY_CSV });
    const result = await runCli(['run', 'tiny.csv', '--demo', '--json'], { cwd: ws.dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);

    const files = ws.files('atelier-library', 'tiny');
    expect(files).toEqual([
      '0001-a-red-fox-flux-schnell-64x64-7.png',
      '0002-two-blue-birds-flux-schnell-64x48-8_1.jpg',
      '0002-two-blue-birds-flux-schnell-64x48-8_2.jpg',
      '0003-a-green-hill-flux-schnell-48x64.webp',
    ]);
    const head = (name: string) => [...readFileSync(ws.path('atelier-library', 'tiny', name))];
    expect(head('0001-a-red-fox-flux-schnell-64x64-7.png').slice(0, 4)).toEqual(PNG);
    expect(head('0002-two-blue-birds-flux-schnell-64x48-8_1.jpg').slice(0, 3)).toEqual(JPEG);

    const summary = summaryOf(result);
    expect(summary).toMatchObject({
      outcome: 'done',
      exitCode: 0,
      batch: { id: 1, name: 'tiny', folder: ws.path('atelier-library', 'tiny') },
      library: ws.path('atelier-library'),
      jobs: { total: 3, succeeded: 3, failed: 0, queued: 0, running: 0, retrying: 0 },
      images: { written: files.length, onDisk: files.length, failedDownloads: 0 },
      requestsSent: 3,
      paused: null,
    });
    expect(summary.wallTimeMs).toBeGreaterThan(0);
  });

  it("takes a chosen model's own default size when none is given (a video model too)", async () => {
    ws = workspace({ 'p.txt': 'a lighthouse in fog\n' });
    const result = await runCli(['run', 'p.txt', '--demo', '--model', 'sora-2', '--json'], {
      cwd: ws.dir,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(summaryOf(result).jobs).toMatchObject({ total: 1, succeeded: 1, failed: 0 });
    expect(summaryOf(result).videoJobs).toBe(1);
    const status = await runCli(['status'], { cwd: ws.dir });
    expect(status.stdout).toContain('   videos:  1 on disk');
  }, 60_000);

  it('prints where the images are, and status lists the batch with its counts', async () => {
    ws = workspace({ 'tiny.csv': TINY_CSV });
    const result = await runCli(
      ['run', 'tiny.csv', '--demo', '--out', 'pictures', '--manifest', '--sidecar', '--thumbnails'],
      { cwd: ws.dir },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('all 3 prompts succeeded, 4 images written');
    expect(result.stdout).toContain(`Images:  4 in ${ws.path('pictures', 'tiny')}`);
    expect(result.stderr).toMatch(/Imported 3 prompt\(s\) from tiny\.csv as batch "tiny"/);
    const written = ws.files('pictures', 'tiny');
    expect(written).toContain('manifest.csv');
    expect(written.filter((name) => name.endsWith('.json'))).toHaveLength(4);
    // a small WebP thumbnail per image, for the gallery
    const images = written.filter((name) => /\.(png|jpe?g|webp)$/.test(name));
    const thumbs = ws.files('pictures', 'tiny', '.thumbs');
    expect(thumbs.sort()).toEqual(images.map((name) => `${name}.webp`).sort());
    for (const thumb of thumbs) {
      const bytes = readFileSync(ws.path('pictures', 'tiny', '.thumbs', thumb));
      expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
      expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
    }

    const status = await runCli(['status', '--json'], { cwd: ws.dir });
    expect(status.code).toBe(0);
    const view = JSON.parse(status.stdout) as StatusView;
    expect(view.library).toBe(ws.path('pictures'));
    expect(view.paused).toBeNull();
    expect(view.batches).toHaveLength(1);
    expect(view.batches[0]).toMatchObject({
      name: 'tiny',
      source: 'tiny.csv',
      folder: ws.path('pictures', 'tiny'),
      jobs: { total: 3, succeeded: 3 },
      downloads: { done: 4, failed: 0, pending: 0 },
    });

    const human = await runCli(['status'], { cwd: ws.dir });
    expect(human.stdout).toContain('#1 "tiny" from tiny.csv');
    expect(human.stdout).toContain('prompts: 3 succeeded (of 3)');
    expect(human.stdout).toContain('images:  4 on disk');
  });

  it('runs the bundled sample of `npm run demo` end to end', async () => {
    ws = workspace();
    const result = await runCli(['run', SAMPLE, '--demo', '--json'], { cwd: ws.dir });
    expect(result.code).toBe(0);
    const summary = summaryOf(result);
    expect(summary.jobs).toMatchObject({ total: 18, succeeded: 18 });
    expect(ws.files('atelier-library', 'demo-prompts')).toHaveLength(summary.images.onDisk);
    expect(summary.images.onDisk).toBe(23);
  });

  it('refuses a data folder written by a newer Atelier with exit 2', async () => {
    ws = workspace();
    mkdirSync(ws.path('.atelier-data'));
    const db = new Database(ws.path('.atelier-data', 'atelier.db'));
    db.pragma('user_version = 999');
    db.close();
    const result = await runCli(['status'], { cwd: ws.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/written by a newer Atelier/);
  });

  it('refuses a damaged database with exit 2 and says what to do, leaving it as it is', async () => {
    ws = workspace({ 'p.txt': 'a fox\n' });
    const file = ws.path('.atelier-data', 'atelier.db');
    expect((await runCli(['run', 'p.txt', '--demo'], { cwd: ws.dir })).code).toBe(0);
    // the current schema version, but a table is gone
    const db = new Database(file);
    db.pragma('foreign_keys = OFF');
    db.exec('DROP TABLE image_payloads');
    db.close();
    const before = readFileSync(file);
    for (const command of [['status'], ['resume'], ['run', 'p.txt', '--demo']]) {
      const result = await runCli(command, { cwd: ws.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`The database ${file} is damaged or was changed`);
      expect(result.stderr).toContain('no such table: image_payloads');
      expect(result.stderr).toContain('Restore it from a backup');
      expect(result.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
    }
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('refuses a file with a bad row: exit 2, the line number, and nothing imported', async () => {
    ws = workspace({
      'bad.csv': 'prompt,size,n\nfine,64x64,1\nnot fine,64x64,0\nalso fine,64x64,1\n',
    });
    const result = await runCli(['run', 'bad.csv', '--demo'], { cwd: ws.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/nothing was imported/);
    expect(result.stderr).toMatch(/line 3: /);
    expect(result.stdout).toBe('');

    const status = await runCli(['status', '--json'], { cwd: ws.dir });
    expect((JSON.parse(status.stdout) as StatusView).batches).toEqual([]);
  });

  it('exits 2 without a key for a real gateway, saying how to set it', async () => {
    ws = workspace({ 'p.txt': 'a prompt\n' });
    const result = await runCli(
      ['run', 'p.txt', '--gateway', 'http://127.0.0.1:9', '--model', 'm'],
      {
        cwd: ws.dir,
      },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/set ATELIER_API_KEY/);
    expect(result.stderr).toMatch(/--demo/);
  });

  it('exits 2 on usage errors: no file, bad flags, a malformed --header', async () => {
    ws = workspace({ 'p.txt': 'a prompt\n' });
    const cases: Array<[string[], RegExp]> = [
      [['run', '--demo'], /give the prompt file/],
      [['run', 'p.txt', '--demo', '--gateway', 'http://x'], /either --demo or --gateway/],
      [['run', 'p.txt', '--demo', '--n', '0'], /--n must be a whole number from 1 to 10/],
      [['run', 'p.txt', '--demo', '--size', '64×64'], /--size must be WxH/],
      [['run', 'p.txt', '--gateway', 'http://x', '--header', 'NoColon'], /'Name: value'/],
      [
        ['run', 'p.txt', '--gateway', 'http://x', '--header', 'Authorization: Bearer sk-1'],
        /ATELIER_API_KEY/,
      ],
      [['run', 'p.txt', '--demo', '--template', '{nope}.{ext}'], /unknown variable \{nope\}/],
      [['resume'], /no queue in/],
    ];
    // refused before anything is written, so they may run side by side
    const results = await Promise.all(
      cases.map(([args]) => runCli(args, { cwd: ws.dir, key: 'sk-test' })),
    );
    cases.forEach(([args, message], i) => {
      expect(results[i]!.code, args.join(' ')).toBe(2);
      expect(results[i]!.stderr, args.join(' ')).toMatch(message);
    });
    expect(ws.files('.')).toEqual(['p.txt']); // nothing was created by a refusal
  });
});
