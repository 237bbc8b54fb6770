import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bin } from './harness.ts';

const compileCache = resolve(import.meta.dirname, '../../../bin/compile-cache.js');
/** Says at exit whether this process loaded Node's TypeScript type stripper. */
const REPORT_STRIPPER = `data:text/javascript,process.on('exit', () => process.stderr.write('stripper loaded: ' + process.moduleLoadList.some((m) => m.includes('amaro')) + '\\n'))`;

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-compile-cache-'));
  dirs.push(dir);
  return dir;
}

function node(args: string[], cacheHome: string, env: NodeJS.ProcessEnv = {}) {
  const base = { ...process.env };
  delete base.NODE_COMPILE_CACHE;
  delete base.NODE_DISABLE_COMPILE_CACHE;
  return spawnSync(process.execPath, args, {
    encoding: 'utf8',
    // (from the sources: a bundle loads no TypeScript at all)
    env: { ...base, XDG_CACHE_HOME: cacheHome, ATELIER_CLI_SOURCES: '1', ...env },
  });
}

/**
 * Enables the cache as bin/atelier.js does, then asks a worker thread where its cache is (Node
 * answers with its folder for this version of Node, inside the one given).
 */
const IN_A_WORKER = `
  const { enableCompileCache } = await import(${JSON.stringify(compileCache)});
  const folder = enableCompileCache();
  const { Worker } = await import('node:worker_threads');
  const { dirname } = await import('node:path');
  const worker = new Worker(
    "import { parentPort } from 'node:worker_threads'; import module from 'node:module'; " +
      'parentPort.postMessage(module.getCompileCacheDir() ?? null);',
    { eval: true },
  );
  worker.once('message', (inWorker) => {
    console.log(JSON.stringify({ folder, inWorker: inWorker && dirname(inWorker) }));
    worker.terminate();
  });
`;

describe.skipIf(process.platform === 'win32')("the CLI's compile cache", () => {
  it("lives in the user's cache folder, private, and spares a warm start the TypeScript stripper", () => {
    const cacheHome = tempDir();
    const cold = node(['--import', REPORT_STRIPPER, bin, '--help'], cacheHome);
    expect(cold.status).toBe(0);
    expect(cold.stderr).toContain('stripper loaded: true');
    const folder = join(cacheHome, 'atelier', 'node-compile-cache');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(readdirSync(folder).length).toBeGreaterThan(0);

    const warm = node(['--import', REPORT_STRIPPER, bin, '--help'], cacheHome);
    expect(warm.status).toBe(0);
    expect(warm.stdout).toBe(cold.stdout);
    expect(warm.stderr).toContain('stripper loaded: false');
  });

  it('is handed to the worker threads the process starts', () => {
    const cacheHome = tempDir();
    const result = node(['--input-type=module', '-e', IN_A_WORKER], cacheHome);
    expect(result.stderr).toBe('');
    const folder = join(cacheHome, 'atelier', 'node-compile-cache');
    expect(JSON.parse(result.stdout)).toEqual({ folder, inWorker: folder });
  });

  it('is not used, and nothing fails, where the folder is a link or cannot be made', () => {
    const linked = tempDir();
    mkdirSync(join(linked, 'atelier'));
    mkdirSync(join(linked, 'elsewhere'));
    symlinkSync(join(linked, 'elsewhere'), join(linked, 'atelier', 'node-compile-cache'));
    const blocked = tempDir();
    writeFileSync(join(blocked, 'atelier'), 'a file where the folder would go');
    for (const cacheHome of [linked, blocked]) {
      const result = node(['--input-type=module', '-e', IN_A_WORKER], cacheHome);
      expect(JSON.parse(result.stdout)).toEqual({ folder: null, inWorker: null });
      expect(node([bin, '--help'], cacheHome).status).toBe(0);
    }
    expect(readdirSync(join(linked, 'elsewhere'))).toEqual([]);
  });

  it('is where NODE_COMPILE_CACHE says when it is set', () => {
    const chosen = join(tempDir(), 'chosen');
    const result = node(['--input-type=module', '-e', IN_A_WORKER], tempDir(), {
      NODE_COMPILE_CACHE: chosen,
    });
    expect(JSON.parse(result.stdout)).toEqual({ folder: chosen, inWorker: chosen });
  });
});
