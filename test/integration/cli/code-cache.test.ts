import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CachedScript } from '../../../bin/code-cache.js';
import { privateFolder } from '../../../bin/compile-cache.js';

const codeCache = pathToFileURL(resolve(import.meta.dirname, '../../../bin/code-cache.js')).href;
/** A module whose one big function V8 compiles only when it is called. */
const SOURCE =
  `exports.answer = 42;\n` +
  `exports.sum = function sum(n) { let t = 0; ${'t += n * 2; '.repeat(400)}return t; };\n`;

/**
 * One start of a process (V8 keeps compiled code per process: only a new one reads the cache):
 * loads `file` through the code cache as bin/atelier.js does, calls `sum` if asked, changes a
 * V8 flag if asked (as the CLI does while it runs), saves, and says what happened.
 */
const SESSION = `
  import v8 from 'node:v8';
  import { installCodeCache } from ${JSON.stringify(codeCache)};
  const { root, folder, file, scope, call, changeFlags } = JSON.parse(process.argv[2]);
  const cache = installCodeCache({ root, folder, scope });
  const loaded = cache.load(file);
  const sum = call ? loaded.sum(1) : null;
  if (changeFlags) v8.setFlagsFromString('--semi-space-growth-factor=1');
  cache.save();
  console.log(JSON.stringify({ answer: loaded.answer, sum, scripts: cache.scripts }));
`;

let dir = '';
let bundle = '';
let folder: string | null = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-code-cache-'));
  bundle = join(dir, 'bundle');
  folder = join(dir, 'cache');
  mkdirSync(bundle);
  mkdirSync(folder, { mode: 0o700 });
  writeFileSync(join(dir, 'session.mjs'), SESSION);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function session(
  file: string,
  options: { scope?: string; call?: boolean; changeFlags?: boolean } = {},
): { answer: number; sum: number | null; scripts: CachedScript[]; script: CachedScript } {
  const input = { root: bundle, folder, file, scope: 'run', ...options };
  const result = spawnSync(process.execPath, [join(dir, 'session.mjs'), JSON.stringify(input)], {
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
  const out = JSON.parse(result.stdout) as { answer: number; sum: number; scripts: CachedScript[] };
  return { ...out, script: out.scripts[0]! };
}

function bundleFile(source = SOURCE, name = 'chunk.cjs'): string {
  const file = join(bundle, name);
  writeFileSync(file, source);
  return file;
}

describe("the CLI bundle's code cache", () => {
  it('is written at save with what the run compiled, and the next start runs from it', () => {
    const file = bundleFile();
    const first = session(file, { call: true });
    expect(first).toMatchObject({ answer: 42, sum: 800, script: { state: 'missing' } });
    const written = readFileSync(first.script.file!);
    if (process.platform !== 'win32') expect(statSync(first.script.file!).mode & 0o777).toBe(0o600);

    const second = session(file, { call: true });
    expect(second).toMatchObject({
      sum: 800,
      script: { state: 'accepted', file: first.script.file },
    });
    // (accepted: never rewritten)
    expect(readFileSync(second.script.file!).equals(written)).toBe(true);
  });

  it('sweeps files unwritten for two weeks when it writes, and reads no folder when it does not', () => {
    const file = bundleFile();
    const old = join(folder!, 'old.bin');
    writeFileSync(old, 'stale');
    const weeksAgo = new Date(Date.now() - 15 * 24 * 3600 * 1000);
    utimesSync(old, weeksAgo, weeksAgo);
    session(file, { call: true });
    expect(existsSync(old)).toBe(false);
    // (the next start reads its cache and writes nothing: the folder is not looked through)
    writeFileSync(old, 'stale');
    utimesSync(old, weeksAgo, weeksAgo);
    expect(session(file, { call: true }).script.state).toBe('accepted');
    expect(existsSync(old)).toBe(true);
  });

  it('holds the functions compiled while the code ran, not only those compiled at load', () => {
    const file = bundleFile();
    const notCalled = session(file, { scope: 'status' });
    const called = session(file, { scope: 'run', call: true });
    // (each scope, a command, has its own cache: one command's run never spoils another's)
    expect(called.script.file).not.toBe(notCalled.script.file);
    expect(statSync(called.script.file!).size).toBeGreaterThan(
      statSync(notCalled.script.file!).size + 1000,
    );
  });

  it('ignores a cache V8 refuses, runs the code as without it, and writes it again', () => {
    const file = bundleFile();
    const { script } = session(file, { call: true });
    writeFileSync(script.file!, Buffer.alloc(2000, 7), { mode: 0o600 });

    expect(session(file, { call: true })).toMatchObject({
      sum: 800,
      script: { state: 'rejected' },
    });
    expect(session(file).script.state).toBe('accepted');
  });

  it("never runs another source's cache: a change of a single character is another file", () => {
    const file = bundleFile();
    const first = session(file, { call: true });
    // the same length, which is all V8's own check compares
    bundleFile(SOURCE.replace('exports.answer = 42', 'exports.answer = 43'));
    const changed = session(file, { call: true });
    expect(changed).toMatchObject({ answer: 43, script: { state: 'missing' } });
    expect(changed.script.file).not.toBe(first.script.file);
  });

  it('writes nothing for code compiled under other V8 flags than at the save', () => {
    const file = bundleFile();
    const changed = session(file, { call: true, changeFlags: true });
    expect(() => statSync(changed.script.file!)).toThrow();
    // (V8 would refuse it at the next start, which compiles under the flags at start)
    session(file, { call: true });
    expect(session(file).script.state).toBe('accepted');
  });

  it('leaves to Node a file with an import(), and files outside the bundle', () => {
    const imports = bundleFile(`exports.answer = import('node:path').then(() => 42);\n`, 'i.cjs');
    expect(session(imports).scripts).toEqual([]);
    const outside = join(dir, 'elsewhere.cjs');
    writeFileSync(outside, SOURCE);
    expect(session(outside).scripts).toEqual([]);
  });

  it('compiles without a cache where there is no private folder', () => {
    folder = null;
    expect(session(bundleFile(), { call: true })).toMatchObject({
      sum: 800,
      script: { state: 'none', file: null },
    });
  });
});

describe.skipIf(process.platform === 'win32')('a cache that is not private', () => {
  it('is not read when others may write to it, or when it is a link', () => {
    const file = bundleFile();
    const cached = session(file, { call: true }).script.file!;
    chmodSync(cached, 0o666);
    expect(session(file).script.state).toBe('missing');

    const elsewhere = join(dir, 'elsewhere.bin');
    writeFileSync(elsewhere, readFileSync(cached), { mode: 0o600 });
    rmSync(cached);
    symlinkSync(elsewhere, cached);
    expect(session(file).script.state).toBe('missing');
  });

  it('is not kept in a folder others may write to', () => {
    const shared = join(dir, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    expect(privateFolder(shared)).toBeNull();
    expect(privateFolder(join(dir, 'made'))).toBe(join(dir, 'made'));
    expect(statSync(join(dir, 'made')).mode & 0o777).toBe(0o700);
  });
});
