import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layering rules of eslint.config.js, proved on snippets placed at a path in each layer.
const root = resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });
const LAYERING_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax']);

/** The layering complaints ESLint makes about `code` if it lived at `file`. */
async function layeringMessages(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, file) });
  return result!.messages.filter((m) => LAYERING_RULES.has(m.ruleId ?? '')).map((m) => m.message);
}

const staticImport = (spec: string) =>
  `import { probe } from '${spec}';\nexport const used = probe;\n`;
const forms = {
  import: staticImport,
  'import type': (spec: string) =>
    `import type { Probe } from '${spec}';\nexport type Used = Probe;\n`,
  're-export': (spec: string) => `export { probe } from '${spec}';\n`,
  'import()': (spec: string) => `export const loaded = import('${spec}');\n`,
};

const CORE = 'main/core/engine/probe.ts';
const SHARED = 'shared/gateway/probe.ts';
const RENDERER = 'renderer/src/probe.tsx';
const SIMULATOR = 'main/simulator/routes/probe.ts';
const PRELOAD = 'main/electron/preload.ts';

describe('import boundaries between layers', () => {
  it.each([
    [CORE, 'electron', /Electron-free/],
    [CORE, 'electron-store', /Electron-free/],
    [CORE, 'react', /UI-free/],
    [CORE, 'react-dom/client', /UI-free/],
    [CORE, '../../cli/index.ts', /must not import the CLI/],
    [CORE, '../../web/server.ts', /must not import the CLI, the web host/],
    [CORE, '../../electron/index.ts', /must not import .* the Electron shell/],
    [CORE, '../../simulator/index.ts', /must not import .* the simulator/],
    [CORE, '../../../renderer/src/App.tsx', /must not import .* the renderer/],
    [SHARED, 'node:fs/promises', /no Node built-ins/],
    [SHARED, 'path', /no Node built-ins/],
    [SHARED, 'better-sqlite3', /no Node-only packages/],
    [SHARED, '../../main/core/store/store.ts', /imports neither of them/],
    [SHARED, '../../renderer/src/App.tsx', /imports neither of them/],
    [RENDERER, 'node:fs', /no Node built-ins/],
    [RENDERER, 'electron', /no Electron or Node-only packages/],
    [RENDERER, 'better-sqlite3', /no Electron or Node-only packages/],
    [RENDERER, 'sharp', /no Electron or Node-only packages/],
    [RENDERER, 'undici', /no Electron or Node-only packages/],
    [RENDERER, '../../main/core/store/store.ts', /never main\//],
    [SIMULATOR, '../../cli/index.ts', /never imports the CLI/],
    [SIMULATOR, '../../electron/index.ts', /never imports the CLI or the Electron shell/],
    [SIMULATOR, 'electron', /no Electron/],
    [SIMULATOR, '../../core/engine/engine.ts', /never imports the engine/],
    [PRELOAD, 'node:fs', /sandboxed renderer.*not Node built-ins/],
    [PRELOAD, '../core/store/store.ts', /imports no main code/],
  ])('%s may not import %s', async (file, spec, reason) => {
    for (const [form, write] of Object.entries(forms)) {
      const messages = await layeringMessages(file, write(spec));
      expect(messages, `${form} '${spec}' in ${file}`).toHaveLength(1);
      expect(messages[0], `${form} '${spec}' in ${file}`).toMatch(reason);
    }
  });

  it.each([
    [CORE, 'zod'],
    [CORE, 'node:path'],
    [CORE, 'node:stream/web'],
    [CORE, 'sharp'],
    [CORE, '../store/store.ts'],
    [CORE, '../../../shared/jobs/states.ts'],
    [SHARED, 'zod'],
    [SHARED, './requests.ts'],
    [SHARED, '../jobs/states.ts'],
    [RENDERER, 'react'],
    [RENDERER, 'zustand'],
    [RENDERER, './App.tsx'],
    [RENDERER, '../../shared/jobs/states.ts'],
    [SIMULATOR, 'node:http'],
    [SIMULATOR, 'sharp'],
    [SIMULATOR, '../http.ts'],
    [SIMULATOR, '../../../shared/gateway/wire/images.ts'],
    [PRELOAD, 'electron'],
    [PRELOAD, '../../shared/jobs/states.ts'],
    // Outside the restricted layers: the CLI runs the simulator for --demo.
    ['main/cli/run/probe.ts', '../../simulator/index.ts'],
    ['main/electron/index.ts', 'electron'],
  ])('%s may import %s', async (file, spec) => {
    for (const [form, write] of Object.entries(forms)) {
      expect(await layeringMessages(file, write(spec)), `${form} '${spec}' in ${file}`).toEqual([]);
    }
  });
});
