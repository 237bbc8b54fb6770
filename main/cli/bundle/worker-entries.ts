import { basename, dirname, relative, resolve } from 'node:path';
import type { Plugin } from 'rolldown';

// `new Worker(new URL('./x.ts', import.meta.url))`, as the core starts its threads (Node runs
// the .ts from the sources).
const WORKER_URL =
  /new Worker\(\s*new URL\(\s*(['"])(\.{1,2}\/[^'"]+\.ts)\1,\s*import\.meta\.url\s*\)/g;

/**
 * Each thread's file becomes an entry of the bundle, and its URL the built file's, relative to
 * the chunk that starts it: left alone, a bundle would start the thread from its TypeScript
 * sources (the CLI's), or from `out/main/x.ts`, which does not exist (the desktop's). The URL
 * is written at the chunk's rendering, after every transform (the CLI's bundle rewrites each
 * module's import.meta.url to its source's). Rollup's `import.meta.ROLLUP_FILE_URL_` is made
 * root-relative by Vite's SSR build, which a file URL cannot use.
 */
export function workerEntries(): Plugin {
  const placeholder = (ref: string) => `__atelier_worker_${ref}__`;
  const refs: string[] = [];
  return {
    name: 'atelier:worker-entries',
    transform(code, id) {
      if (!code.includes('new Worker(')) return null;
      const rewritten = code.replace(WORKER_URL, (_match, _quote, path: string) => {
        const ref = this.emitFile({
          type: 'chunk',
          id: resolve(dirname(id), path),
          name: basename(path, '.ts'),
        });
        refs.push(ref);
        return `new Worker(${placeholder(ref)}`;
      });
      return rewritten === code ? null : { code: rewritten, map: null };
    },
    renderChunk(code, chunk, { format }) {
      // (a CommonJS chunk, as the CLI's, has no import.meta)
      const here =
        format === 'cjs' ? "require('node:url').pathToFileURL(__filename)" : 'import.meta.url';
      let rewritten = code;
      for (const ref of refs) {
        const target = relative(dirname(chunk.fileName), this.getFileName(ref));
        rewritten = rewritten.replaceAll(
          placeholder(ref),
          `new URL('./${target.replaceAll('\\', '/')}', ${here})`,
        );
      }
      return rewritten === code ? null : { code: rewritten, map: null };
    },
  };
}
