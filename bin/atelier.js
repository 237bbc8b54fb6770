#!/usr/bin/env node
// Runs the CLI: its bundle when one is built and fresh (bin/cli-bundle.js), else its TypeScript
// sources directly (Node 24 strips types, so there is no build step). The compile cache is
// enabled before the CLI's modules load, so that they load from it too.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freshCliBundle } from './cli-bundle.js';
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
// (as URLs: import() takes no Windows path)
const bundled = (path) => import(pathToFileURL(path).href);
// Installed first, so that even a module failing to load is reported as a bug (exit code 70),
// never as 1, which means "some jobs failed".
const { internalErrorHandler } = await (bundle
  ? bundled(bundle.internalError)
  : import('../main/cli/internal-error.ts'));
const onInternalError = internalErrorHandler();
process.on('uncaughtException', onInternalError);
process.on('unhandledRejection', onInternalError);
try {
  const { main } = await (bundle ? bundled(bundle.index) : import('../main/cli/index.ts'));
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  onInternalError(error);
}
