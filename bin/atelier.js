#!/usr/bin/env node
// Runs the TypeScript CLI directly: Node 24 strips types, so there is no build step. The
// compile cache is enabled before the CLI's modules load, so that they load from it too.
import { enableCompileCache } from './compile-cache.js';

enableCompileCache();
// Installed first, so that even a module failing to load is reported as a bug (exit code 70),
// never as 1, which means "some jobs failed".
const { internalErrorHandler } = await import('../main/cli/internal-error.ts');
const onInternalError = internalErrorHandler();
process.on('uncaughtException', onInternalError);
process.on('unhandledRejection', onInternalError);
try {
  const { main } = await import('../main/cli/index.ts');
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  onInternalError(error);
}
