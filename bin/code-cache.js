// Plain JavaScript, not TypeScript: it loads the CLI's bundle, before any .ts file could load.
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { codeCacheFolder, ownedAlone, privateFolder } from './compile-cache.js';

/**
 * An import() (of a package that is an ES module: sharp, open, trash) in code compiled by
 * vm.Script needs a flag of Node's or an experimental loader that prints a warning: such a
 * file is compiled by Node (and its compile cache) as before.
 */
const DYNAMIC_IMPORT = /\bimport\s*\(/;

/**
 * A cache file unwritten for this long is removed by the next save that writes one (the next run
 * that needs it writes it again).
 */
const MAX_AGE_MS = 14 * 24 * 3600 * 1000;

/**
 * @typedef {object} CachedScript
 * @property {string} filename the bundle's file
 * @property {string | null} file its cache file (null: no cache folder)
 * @property {'none' | 'missing' | 'rejected' | 'accepted'} state what its compile found
 */

/**
 * Compiles the bundle's files (CommonJS, under `root`) with V8's code cache of an earlier run,
 * the functions that run compiled lazily included: Node's compile cache holds only what V8
 * compiled when a module loaded, so every run compiled again each function it called (about
 * 1,000 before a run's first request). A file with no cache, or whose cache V8 refused, has its
 * cache made by `save()`, called late (at exit), after the run compiled what it used.
 *
 * The cache is code this process runs: it lives in a private folder (bin/compile-cache.js),
 * each file named by a hash of the source's exact contents (V8's own check compares the
 * length only), the scope (the command: each command's run caches the functions it uses),
 * Node's V8 and the V8 flags at start; written whole or not at all (a temporary file renamed).
 * A cache that cannot be read or that V8 refuses is ignored: the file compiles as without it.
 *
 * @param {object} options
 * @param {string} options.root the bundle's folder: only the `.cjs` files under it are compiled here
 * @param {string | null} options.folder the cache's folder, private; null: compile without a cache
 * @param {string} [options.scope]
 * @param {() => number} [options.versionTag] V8's tag of its version and flags (a test's stand-in)
 */
export function installCodeCache({
  root,
  folder,
  scope = '',
  versionTag = () => v8.cachedDataVersionTag(),
}) {
  const prefix = root.endsWith(sep) ? root : root + sep;
  const salt = `${scope}\0${process.arch}\0${process.versions.v8}\0${versionTag()}\0`;
  /** @type {CachedScript[]} */
  const scripts = [];
  /** @type {Array<{ script: vm.Script, file: string, tag: number }>} */
  const unsaved = [];
  const original = Module.prototype._compile;

  /** @param {Module} module @param {string} content @param {string} filename */
  function compile(module, content, filename) {
    const file =
      folder &&
      join(folder, `${createHash('sha256').update(salt).update(content).digest('hex')}.bin`);
    const cachedData = file ? readOwnFile(file) : undefined;
    const script = new vm.Script(Module.wrap(content), { filename, cachedData });
    /** @type {CachedScript['state']} */
    let state = 'accepted';
    if (!file) state = 'none';
    else if (!cachedData) state = 'missing';
    else if (script.cachedDataRejected) state = 'rejected';
    scripts.push({ filename, file, state });
    // (the tag now: V8 checks the flags a cache was made under against those it is read under)
    if (file && state !== 'accepted') unsaved.push({ script, file, tag: versionTag() });
    const wrapper = script.runInThisContext({ displayErrors: true });
    return wrapper.call(
      module.exports,
      module.exports,
      createRequire(filename),
      module,
      filename,
      dirname(filename),
    );
  }

  /** @this {Module} @param {string} content @param {string} filename @param {string} [format] */
  Module.prototype._compile = function (content, filename, format) {
    const ours =
      filename.startsWith(prefix) && filename.endsWith('.cjs') && !DYNAMIC_IMPORT.test(content);
    return ours ? compile(this, content, filename) : original.call(this, content, filename, format);
  };

  const load = createRequire(import.meta.url);
  return {
    /** @param {string} path a bundle's file, absolute */
    load: (path) => load(path),
    scripts,
    /**
     * Writes the cache of each file compiled without one, with every function compiled so far.
     * A file compiled under other V8 flags than now (the CLI changes one while it runs) is left
     * for a run that ends with the flags it compiled under.
     */
    save() {
      const tag = versionTag();
      let wrote = false;
      for (const { script, file, tag: compiledUnder } of unsaved.splice(0)) {
        if (compiledUnder !== tag) continue;
        const temp = `${file}.${process.pid}.tmp`;
        try {
          writeFileSync(temp, script.createCachedData(), { mode: 0o600, flag: 'wx' });
          renameSync(temp, file);
          wrote = true;
        } catch {
          rmSync(temp, { force: true });
        }
      }
      // Old files are swept when new ones come (once per build and command), not at every
      // exit: a look at each of the folder's hundreds of files held the end of every run.
      if (folder && wrote) removeOld(folder);
    },
    uninstall() {
      Module.prototype._compile = original;
    },
  };
}

/**
 * The file's bytes when it is a file of this user's that nobody else may write to (the folder is
 * private, but a cache is code run); undefined when missing, unreadable or not so.
 *
 * @param {string} file
 * @returns {Buffer | undefined}
 */
function readOwnFile(file) {
  let fd;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const stats = fstatSync(fd);
    return stats.isFile() && ownedAlone(stats) ? readFileSync(fd) : undefined;
  } catch {
    return undefined; // none yet, or unreadable: compiled as without it, and written at exit
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** @param {string} folder */
function removeOld(folder) {
  const before = Date.now() - MAX_AGE_MS;
  try {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).mtimeMs < before) rmSync(path, { force: true });
    }
  } catch {
    // another process removed it meanwhile: nothing to do
  }
}

/**
 * How bin/atelier.js loads the CLI's bundle: through the code cache in the user's private
 * folder (none where there is no such folder, or NODE_DISABLE_COMPILE_CACHE=1), saved at exit,
 * unless the command stopped at a usage or configuration error (2) or a bug (70): a command's
 * cache, once written, is kept, and one made by a mistyped flag would hold little of its run.
 *
 * @param {string} root the bundle's folder
 * @param {string} scope the command
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {(path: string) => any}
 */
export function bundleLoader(root, scope, env = process.env) {
  const folder = env.NODE_DISABLE_COMPILE_CACHE === '1' ? null : codeCacheFolder(env);
  const cache = installCodeCache({ root, folder: folder && privateFolder(folder), scope });
  process.on('exit', (code) => {
    if (code !== 2 && code !== 70) cache.save();
  });
  return cache.load;
}
