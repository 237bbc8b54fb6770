#!/usr/bin/env node
// Runs the TypeScript CLI directly: Node 24 strips types, so there is no build step. The
// compile cache is enabled before the CLI's modules load, so that they load from it too.
import { enableCompileCache } from '../main/core/runtime/compile-cache.ts';

enableCompileCache();
const { main } = await import('../main/cli/index.ts');
process.exitCode = await main(process.argv.slice(2));
