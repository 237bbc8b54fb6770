import v8 from 'node:v8';

/**
 * Keeps V8's young generation at its starting size, in a process that runs the engine or an
 * import. On a machine with plenty of memory V8 may grow it to 64 MB per semi-space (128 MB of
 * resident memory), and it does so when many objects survive a collection: the engine's
 * requests in flight and images on their way to disk always do. Kept small, the same work
 * needs far less memory for the same CPU (figures in docs/performance.md).
 *
 * The growth factor is read at each growth decision, so it can be set after start-up (the
 * maximum semi-space size cannot: V8 reads it when the heap is created). The CLI calls it once
 * its command's modules are loaded: the young generation keeps the size loading them grew it
 * to (16 MB), about 15 MB more at the peak of a 100,000-prompt import, for far fewer
 * collections while so much survives.
 */
export function keepYoungGenerationSmall(): void {
  v8.setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * V8's growth factor back to its default (2), once the engine's work is done: V8 refuses code
 * cached under other flags than it reads it under, and the CLI's code cache, made at exit,
 * is read by the next start, before keepYoungGenerationSmall() (bin/code-cache.js).
 */
export function letYoungGenerationGrow(): void {
  v8.setFlagsFromString('--semi-space-growth-factor=2');
}
