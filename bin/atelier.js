#!/usr/bin/env node
// Runs the TypeScript CLI directly: Node 24 strips types, so there is no build step.
import { main } from '../main/cli/index.ts';

process.exitCode = await main(process.argv.slice(2));
