// Plain JavaScript, not TypeScript: it runs before any .ts file is loaded, because the first
// .ts file a process loads without the cache costs ~25 ms of CPU to set up type stripping.
import { lstatSync, mkdirSync } from 'node:fs';
import module from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The user's own cache folder for Atelier's compiled code: under XDG_CACHE_HOME (or ~/.cache),
 * ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows. Never the shared temp folder (Node's
 * default), where another user of the machine could create the folder first and hand this
 * process compiled code of theirs.
 *
 * @param {NodeJS.ProcessEnv} env
 * @param {NodeJS.Platform} platform
 * @param {string} home
 * @returns {string | null}
 */
export function compileCacheFolder(env, platform = process.platform, home = homedir()) {
  let base;
  if (platform === 'win32') base = env.LOCALAPPDATA;
  else if (platform === 'darwin') base = home && join(home, 'Library', 'Caches');
  else base = env.XDG_CACHE_HOME || (home && join(home, '.cache'));
  return base ? join(base, 'atelier', 'node-compile-cache') : null;
}

/**
 * Beside Node's: Atelier's own cache of the CLI bundle's compiled code, functions compiled
 * while a run ran included (bin/code-cache.js).
 *
 * @param {NodeJS.ProcessEnv} env
 * @param {NodeJS.Platform} platform
 * @param {string} home
 * @returns {string | null}
 */
export function codeCacheFolder(env, platform = process.platform, home = homedir()) {
  const node = compileCacheFolder(env, platform, home);
  return node && join(dirname(node), 'code-cache');
}

/**
 * `folder`, made if missing (this user's alone), when it may hold code this process runs;
 * null otherwise (another user's, a link, writable by others, not makeable).
 *
 * @param {string} folder
 * @returns {string | null}
 */
export function privateFolder(folder) {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch {
    return null;
  }
  return isPrivateFolder(folder) ? folder : null;
}

/**
 * Whether `folder` may hold code this process runs: a real folder (not a link), and where the
 * platform has owners and modes, this user's and writable by nobody else.
 *
 * @param {string} folder
 * @returns {boolean}
 */
export function isPrivateFolder(folder) {
  let stats;
  try {
    stats = lstatSync(folder);
  } catch {
    return false;
  }
  return stats.isDirectory() && ownedAlone(stats);
}

/**
 * Where the platform has owners and modes: whether this user owns it and nobody else may write
 * to it (a file or folder whose contents this process runs as code); true elsewhere.
 *
 * @param {import('node:fs').Stats} stats
 * @returns {boolean}
 */
export function ownedAlone(stats) {
  if (typeof process.getuid !== 'function') return true;
  return stats.uid === process.getuid() && (stats.mode & 0o022) === 0;
}

/**
 * Node's on-disk cache of compiled code (and of TypeScript with its types stripped), for this
 * process and the worker threads it starts (the file placer, the checkpointer): every module
 * is compiled once per version instead of at every start. NODE_COMPILE_CACHE, when set, is
 * Node's to honour; NODE_DISABLE_COMPILE_CACHE=1 turns it off. A folder that cannot be made
 * private (another user's, a link, read-only) means no cache, never an error.
 *
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string | null} the folder in use (Node keeps a folder per version inside), or null
 */
export function enableCompileCache(env = process.env) {
  // Set before start: Node enabled it already (or was told not to); workers inherit it.
  if (env.NODE_COMPILE_CACHE) return module.getCompileCacheDir() ? env.NODE_COMPILE_CACHE : null;
  const folder = compileCacheFolder(env);
  if (!folder || !privateFolder(folder)) return null;
  const { directory } = module.enableCompileCache(folder);
  // Worker threads read the variable when they start.
  if (directory) env.NODE_COMPILE_CACHE = directory;
  return directory ?? null;
}
