import { basename, dirname, relative, resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';

// `new Worker(new URL('./x.ts', import.meta.url))`, as the core starts its threads (Node runs
// the .ts from the sources).
const WORKER_URL =
  /new Worker\(\s*new URL\(\s*(['"])(\.{1,2}\/[^'"]+\.ts)\1,\s*import\.meta\.url\s*\)/g;

/**
 * Each thread's file becomes an entry of the main bundle, and its URL the built file's, relative
 * to the chunk that starts it: left alone, the bundle would start `out/main/x.ts`, which does
 * not exist. (Rollup's `import.meta.ROLLUP_FILE_URL_` is made root-relative by Vite's SSR
 * build, which a file URL cannot use.)
 */
function workerEntries(): Plugin {
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
        return `new Worker(new URL('${placeholder(ref)}', import.meta.url)`;
      });
      return rewritten === code ? null : { code: rewritten, map: null };
    },
    renderChunk(code, chunk) {
      let rewritten = code;
      for (const ref of refs) {
        const target = relative(dirname(chunk.fileName), this.getFileName(ref));
        rewritten = rewritten.replaceAll(placeholder(ref), `./${target.replaceAll('\\', '/')}`);
      }
      return rewritten === code ? null : { code: rewritten, map: null };
    },
  };
}

// Folders follow docs/design.md: main/electron is the shell, renderer/ the React UI.
export default defineConfig({
  main: {
    plugins: [workerEntries()],
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve('main/electron/index.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload must be CommonJS and can require nothing but electron: the contract
      // (and zod under it) is bundled in.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('main/electron/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'renderer',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      // the browser host serves this bundle too: minified, it loads in a third of the time
      minify: true,
      rollupOptions: { input: { index: resolve('renderer/index.html') } },
    },
  },
});
