import module from 'node:module';

/**
 * Node's on-disk cache of compiled code (and of TypeScript with its types stripped), for this
 * process and the worker threads it starts (the file placer, the checkpointer). Every module
 * is parsed and compiled once per version instead of at every start, above all the file
 * placer's thread, which starts with each run of the engine. Where the cache cannot be used,
 * nothing changes.
 */
export function enableCompileCache(): void {
  const { directory } = module.enableCompileCache();
  // Worker threads read the variable when they start.
  if (directory) process.env.NODE_COMPILE_CACHE ??= directory;
}
