// Plain JavaScript, not TypeScript: it decides, before any .ts file is loaded, whether any is.
import { readFileSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';

/**
 * Bumped when the manifest's shape or its entries' format changes (2: CommonJS): an older
 * manifest then means "stale".
 */
export const MANIFEST_VERSION = 2;

/**
 * Where the CLI's bundle lives in a checkout; out/ is the build's, never committed.
 *
 * @param {string} root
 */
export function bundleFolder(root) {
  return join(root, 'out', 'cli');
}

/** @typedef {import('./cli-bundle.js').BundleManifest} BundleManifest */

/**
 * The entries of the CLI's bundle (out/cli, built by `npm run build:cli`) when it is fresh:
 * every source it was built from still as it was. Null when there is none, it is stale or
 * unreadable, or ATELIER_CLI_SOURCES=1 asks for the sources: the CLI then runs its TypeScript
 * as it always can. The check is a stat per source (about 380: 3 ms of CPU), where the
 * bundle saves the loading of some 450 files one by one (about 100 ms of CPU per start).
 *
 * @param {string} root the checkout
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {{ index: string, internalError: string } | null} absolute paths
 */
export function freshCliBundle(root, env = process.env) {
  if (env.ATELIER_CLI_SOURCES === '1') return null;
  const folder = bundleFolder(root);
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8'));
  } catch {
    return null;
  }
  if (!isFresh(manifest, root)) return null;
  return {
    index: resolve(folder, manifest.entries.index),
    internalError: resolve(folder, manifest.entries.internalError),
  };
}

/**
 * @param {BundleManifest} manifest
 * @param {string} root
 * @returns {boolean}
 */
export function isFresh(manifest, root) {
  // (any change to a source's contents moves its mtime; to the file itself, its ctime: a
  // copy, a checkout, a chmod)
  if (manifest?.version !== MANIFEST_VERSION || !Array.isArray(manifest.sources)) return false;
  if (manifest.sources.length === 0) return false;
  // (concatenated, not join()ed: join's normalizing costs more than the stat itself)
  const prefix = root.endsWith(sep) ? root : root + sep;
  for (const source of manifest.sources) {
    const stats = statSync(prefix + source.path, { throwIfNoEntry: false });
    if (
      !stats ||
      stats.mtimeMs !== source.mtimeMs ||
      stats.ctimeMs !== source.ctimeMs ||
      stats.size !== source.size
    ) {
      return false;
    }
  }
  return true;
}
