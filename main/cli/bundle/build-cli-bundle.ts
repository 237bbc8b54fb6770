import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rolldown, type Plugin } from 'rolldown';
import { bundleFolder, MANIFEST_VERSION, type BundleManifest } from '../../../bin/cli-bundle.js';
import { lazyUndiciHttp2 } from './lazy-undici-http2.ts';
import { asciiOutput } from './ascii-output.ts';
import { workerEntries } from './worker-entries.ts';

/**
 * The CLI bundled into a few files (`npm run build:cli`; `npm ci` and `npm run build` run it):
 * Node loads its ~450 modules one by one otherwise, TypeScript stripped, about 100 ms of CPU
 * before a run's first request. bin/atelier.js runs the bundle only while every source it was
 * built from is unchanged (bin/cli-bundle.js), the sources otherwise: a fresh clone, or a
 * source edited since, runs as before, without a build.
 */

/** The project these sources are in. */
const PROJECT_ROOT = resolve(import.meta.dirname, '../../..');

/**
 * Native modules and the packages loaded only on use: loaded from node_modules as with the
 * sources. undici's files that undici-core.ts imports are bundled (its HTTP/2 client behind a
 * call: lazy-undici-http2.ts).
 */
const EXTERNAL = [/^node:/, 'better-sqlite3', 'sharp', 'open', 'trash'];

/**
 * Each module keeps its own import.meta.url and dirname, as where its source is: the packages a module resolves from its folder, the
 * project's files found from the CLI's own place (package.json, out/renderer) all stay where
 * the sources say.
 */
const sourcePlace: Plugin = {
  name: 'atelier-source-place',
  transform(code, id) {
    if (!code.includes('import.meta.')) return null;
    return (
      code
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(id).href))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(id)))
        .replaceAll('import.meta.filename', JSON.stringify(id))
        // (a bundled module is never the process's entry; and its `if (import.meta.main)` block,
        // dropped, may hold a top-level await, which CommonJS cannot)
        .replaceAll('import.meta.main', 'false')
    );
  },
};

/**
 * The file whose change says `id` changed: itself, or for a package's file its package.json
 * (an install rewrites it with the package), one stat per package where its files are dozens.
 */
function sourceToCheck(id: string): string {
  const parts = id.split(sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return id;
  const name = parts[at + 1]!.startsWith('@') ? 2 : 1;
  return [...parts.slice(0, at + 1 + name), 'package.json'].join(sep);
}

/** The files that make the bundle, beside those it is made of. */
const BUILD_FILES = [
  fileURLToPath(import.meta.url),
  join(import.meta.dirname, 'worker-entries.ts'),
  join(import.meta.dirname, 'lazy-undici-http2.ts'),
  join(import.meta.dirname, 'ascii-output.ts'),
];

export interface BuiltBundle {
  /** The bundle's folder, inside out/cli. */
  folder: string;
  /** How many files its freshness is checked against. */
  sources: number;
}

/**
 * Builds the bundle of `root`'s sources into a new folder of `out` (out/cli, where
 * bin/atelier.js looks), then points the manifest at it with a rename, so that a CLI starting
 * meanwhile runs the old bundle or the new one, never half of one; older folders are removed.
 */
export async function buildCliBundle(
  root = PROJECT_ROOT,
  out = bundleFolder(root),
): Promise<BuiltBundle> {
  const name = `build-${Date.now()}-${process.pid}`;
  const folder = join(out, name);
  mkdirSync(out, { recursive: true });
  const bundle = await rolldown({
    input: {
      index: join(root, 'main/cli/index.ts'),
      'internal-error': join(root, 'main/cli/internal-error.ts'),
    },
    platform: 'node',
    external: EXTERNAL,
    // (the threads' files as entries of their own: the file placer's loaded some twenty
    // TypeScript modules one by one at each start)
    plugins: [workerEntries(), lazyUndiciHttp2(), sourcePlace, asciiOutput()],
    logLevel: 'warn',
  });
  let ids: string[];
  try {
    const { output } = await bundle.write({
      dir: folder,
      // (CommonJS, for bin/code-cache.js: V8 takes cached code of an ES module only through
      // vm.SourceTextModule, which needs a flag of Node's)
      format: 'cjs',
      entryFileNames: '[name].cjs',
      chunkFileNames: 'chunks/[name]-[hash].cjs',
      // (undici's JSDoc says `import('node:stream')`: a file with an import() is left to Node's
      // compile cache by bin/code-cache.js; and a start reads and hashes fewer bytes)
      comments: { jsdoc: false },
    });
    ids = output.flatMap((file) => (file.type === 'chunk' ? file.moduleIds : []));
  } finally {
    await bundle.close();
  }
  const manifest: BundleManifest = {
    version: MANIFEST_VERSION,
    entries: { index: `${name}/index.cjs`, internalError: `${name}/internal-error.cjs` },
    // (the build's own files too: a change to how the bundle is made makes it stale as well)
    sources: [
      ...new Set([...ids.filter((id) => isAbsolute(id)), ...BUILD_FILES].map(sourceToCheck)),
    ]
      .sort()
      .map((id) => {
        const stats = statSync(id);
        return {
          path: relative(root, id),
          mtimeMs: stats.mtimeMs,
          ctimeMs: stats.ctimeMs,
          size: stats.size,
        };
      }),
  };
  const next = join(out, `manifest.${name}.json`);
  writeFileSync(next, JSON.stringify(manifest));
  renameSync(next, join(out, 'manifest.json'));
  removeOlderBuilds(out, name);
  return { folder, sources: manifest.sources.length };
}

/**
 * Builds before the last two: the one replaced is kept, since a CLI that started on it may
 * still load its chunks (a command's modules load after the start).
 */
function removeOlderBuilds(out: string, current: string): void {
  const stamp = (entry: string) => Number(entry.split('-')[1]);
  const older = readdirSync(out)
    .filter((entry) => entry.startsWith('build-') && entry !== current)
    .sort((a, b) => stamp(b) - stamp(a));
  for (const entry of older.slice(1)) rmSync(join(out, entry), { recursive: true, force: true });
}

if (import.meta.main) {
  try {
    const started = performance.now();
    const built = await buildCliBundle();
    process.stderr.write(
      `The CLI is bundled (${built.sources} sources) in ` +
        `${relative(process.cwd(), built.folder) || '.'} (${Math.round(performance.now() - started)} ms).\n`,
    );
  } catch (error) {
    // never a failed install: the CLI runs from its sources without the bundle
    process.stderr.write(
      `Could not bundle the CLI (${(error as Error).message}); it runs from its sources.\n`,
    );
  }
}
