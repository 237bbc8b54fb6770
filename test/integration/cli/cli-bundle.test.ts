import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFresh, type BundleManifest } from '../../../bin/cli-bundle.js';
import { buildCliBundle } from '../../../main/cli/bundle/build-cli-bundle.ts';

const root = resolve(import.meta.dirname, '../../..');
/** Says at exit whether this thread loaded Node's TypeScript type stripper, and node:http2. */
const REPORT_LOADED = `data:text/javascript,process.on('exit', () => process.stderr.write('stripper loaded: ' + process.moduleLoadList.some((m) => m.includes('amaro')) + '\\nhttp2 loaded: ' + process.moduleLoadList.some((m) => m.includes('http2')) + '\\n'))`;

let dir = '';
let out = '';
let manifest: BundleManifest;
beforeAll(async () => {
  // In the checkout's out/ (its packages are found from there, as from out/cli), but not in
  // out/cli, which bin/atelier.js runs and the test leaves as it is.
  mkdirSync(join(root, 'out'), { recursive: true });
  dir = mkdtempSync(join(root, 'out', 'cli-bundle-test-'));
  out = join(dir, 'cli');
  await buildCliBundle(root, out);
  manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as BundleManifest;
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the bundle's CLI as bin/atelier.js runs it, with `args`, in `cwd`. */
function runBundle(args: string[], cwd: string) {
  // (a file, not --eval: --input-type=module would pass on to the eval'd checkpoint thread)
  const entry = join(dir, 'entry.mjs');
  const path = (file: string) => JSON.stringify(join(out, file));
  writeFileSync(
    entry,
    `const { bundleLoader } = await import(${JSON.stringify(pathToFileURL(join(root, 'bin/code-cache.js')).href)});
    const load = bundleLoader(${JSON.stringify(dirname(join(out, manifest.entries.index)))}, process.argv[2]);
    process.on('uncaughtException', load(${path(manifest.entries.internalError)}).internalErrorHandler());
    process.exitCode = await load(${path(manifest.entries.index)}).main(process.argv.slice(2));`,
  );
  return spawnSync(process.execPath, ['--import', REPORT_LOADED, entry, ...args], {
    cwd,
    encoding: 'utf8',
    // (the code cache in the test's folder, not the user's)
    env: { ...process.env, ATELIER_API_KEY: '', XDG_CACHE_HOME: join(dir, 'cache') },
  });
}

describe("the CLI's bundle", () => {
  it('is checked against each source of ours, its build, and the package.json of each package in it', () => {
    const paths = manifest.sources.map((source) => source.path.replaceAll('\\', '/'));
    expect(paths).toContain('main/cli/index.ts');
    expect(paths).toContain('main/cli/commands/run.ts');
    expect(paths).toContain('node_modules/zod/package.json');
    // (undici's files are in it: main/core/gateway/http/undici-core.ts)
    expect(paths).toContain('node_modules/undici/package.json');
    // and the build's own files: a change to how it is made makes it stale too
    expect(paths).toContain('main/cli/bundle/build-cli-bundle.ts');
    expect(paths).toContain('main/cli/bundle/worker-entries.ts');
    expect(paths).toContain('main/cli/bundle/lazy-undici-http2.ts');
    expect(paths).toContain('main/cli/bundle/ascii-output.ts');
    expect(paths.filter((path) => path.startsWith('node_modules/'))).toEqual(
      paths.filter((path) => /^node_modules\/(@[^/]+\/)?[^/]+\/package\.json$/.test(path)),
    );
    expect(isFresh(manifest, root)).toBe(true);
    // one build's folder beside the manifest
    expect(readdirSync(out).sort()).toEqual([
      manifest.entries.index.split('/')[0],
      'manifest.json',
    ]);
  });

  it('carries undici’s files, with nothing of them loaded before use that the sources load on use', () => {
    const build = join(out, manifest.entries.index.split('/')[0]!);
    const chunks = readdirSync(build, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.cjs'))
      .map((file) => readFileSync(join(build, file), 'utf8'));
    const undici = chunks.filter((code) => code.includes('node_modules/undici/lib/dispatcher/'));
    expect(undici).toHaveLength(1);
    const [chunk] = undici as [string];
    // its HTTP/2 client (and node:http2) required on a first HTTP/2 connection, TLS on a first
    // https one, llhttp's WebAssembly from node_modules on a first connection
    expect(chunk).toContain('loadedConnectH2 ??= require_client_h2()');
    expect(chunk).not.toMatch(/^\S.*require\("node:(http2|tls)"\)/m);
    expect(chunk).toMatch(/^\s+.*require\("undici\/lib\/llhttp\/llhttp_simd-wasm\.js"\)/m);
    // and no import() in it, not even in a comment: bin/code-cache.js would leave it to Node
    expect(chunk).not.toMatch(/\bimport\s*\(/);
  });

  it('is written in ASCII (a one-byte string for V8), with no template raw text an escape changes', () => {
    const build = join(out, manifest.entries.index.split('/')[0]!);
    const files = readdirSync(build, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.cjs'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const code = readFileSync(join(build, file), 'utf8');
      expect(code, file).not.toMatch(/[^\0-\x7f]/);
      expect(code, file).not.toMatch(/String\.raw/);
    }
    // the sources have characters beyond ASCII, kept as escapes: the usage line's dash
    expect(readFileSync(join(build, 'index.cjs'), 'utf8')).toContain('\\u2014');
  });

  it('runs a batch on the demo gateway end to end without loading any TypeScript', () => {
    const work = mkdtempSync(join(dir, 'run-'));
    writeFileSync(join(work, 'p.txt'), 'a red fox\ntwo blue birds\n');
    const codeCache = join(dir, 'cache', 'atelier', 'code-cache');
    // a mistyped flag writes no cache: it would hold little of what a run compiles
    expect(runBundle(['run', 'p.txt', '--demo', '--sise', '64x64'], work).status).toBe(2);
    expect(readdirSync(codeCache)).toEqual([]);
    const result = runBundle(['run', 'p.txt', '--demo', '--size', '64x64', '--json'], work);
    expect(result.status, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as {
      jobs: { succeeded: number };
      images: { onDisk: number };
    };
    expect(summary.jobs.succeeded).toBe(2);
    expect(summary.images.onDisk).toBe(2);
    expect(readdirSync(join(work, 'atelier-library', 'p'))).toHaveLength(2);
    // the main thread ran the bundle alone
    expect(result.stderr).toContain('stripper loaded: false');
    // its requests went through the bundle's undici, whose HTTP/2 client never loaded
    expect(result.stderr).toContain('http2 loaded: false');
    // and its threads start from the bundle's files too, never from a .ts source
    const build = join(out, manifest.entries.index.split('/')[0]!);
    const threadUrls = readdirSync(build, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.cjs'))
      .flatMap((file) =>
        [...readFileSync(join(build, file), 'utf8').matchAll(/Worker\(new URL\("([^"]+)"/g)].map(
          (match) => match[1]!,
        ),
      );
    expect(threadUrls).toEqual([expect.stringMatching(/^\.\/file-placer-worker-[\w-]+\.cjs$/)]);

    // its compiled code, the functions the run compiled included, cached for the next run
    expect(readdirSync(codeCache).length).toBeGreaterThan(5);
    const again = runBundle(['run', 'p.txt', '--demo', '--size', '64x64', '--json'], work);
    expect(again.status, again.stderr).toBe(0);

    const status = runBundle(['status', '--json'], work);
    expect(status.status, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ batches: [{ name: 'p' }, { name: 'p' }] });
  }, 60_000);
});
