import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { lazyUndiciHttp2 } from './main/cli/bundle/lazy-undici-http2.ts';
import { workerEntries } from './main/cli/bundle/worker-entries.ts';

// Folders follow docs/design.md: main/electron is the shell, renderer/ the React UI.
export default defineConfig({
  main: {
    plugins: [workerEntries(), lazyUndiciHttp2()],
    build: {
      outDir: 'out/main',
      // undici's files bundled, as in the CLI's bundle: its HTTP/2 client then loads on use
      // (an external undici would load before the sources' stand-in, hoisted above it)
      externalizeDeps: { exclude: ['undici'] },
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
