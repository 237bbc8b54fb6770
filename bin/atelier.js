#!/usr/bin/env node
// Runs the CLI: its bundle when one is built and fresh (bin/cli-bundle.js), else its TypeScript
// sources directly (Node 24 strips types, so there is no build step). The compile cache is
// enabled before the CLI's modules load, so that they load from it too; the bundle's own files
// load through the code cache of an earlier run (bin/code-cache.js).
import { dirname, resolve } from 'node:path';
import { freshCliBundle } from './cli-bundle.js';
import { bundleLoader } from './code-cache.js';
import { enableCompileCache } from './compile-cache.js';

// Node 24 strips TypeScript's types and has the compile cache: an older Node would fail with a
// TypeError that says nothing of the cause.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(
    `atelier needs Node 24; this is Node ${process.versions.node}. Run it through npm, which ` +
      'uses the Node 24 the project installs ("npx atelier …" in the checkout), or install ' +
      'Node 24.\n',
  );
  process.exit(2);
}
enableCompileCache();
const bundle = freshCliBundle(resolve(import.meta.dirname, '..'));
// (each command's run caches the functions it ran)
const bundled = bundle && bundleLoader(dirname(bundle.index), process.argv[2] ?? '');
// Installed first, so that even a module failing to load is reported as a bug (exit code 70),
// never as 1, which means "some jobs failed".
const { internalErrorHandler } = bundled
  ? bundled(bundle.internalError)
  : await import('../main/cli/internal-error.ts');
const onInternalError = internalErrorHandler();
process.on('uncaughtException', onInternalError);
process.on('unhandledRejection', onInternalError);
try {
  const { main } = bundled ? bundled(bundle.index) : await import('../main/cli/index.ts');
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  onInternalError(error);
}
