import { builtinModules } from 'node:module';
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Globals matter only for .js files: typescript-eslint turns no-undef off for TypeScript, whose
// own projects (tsconfig.json for Node, renderer/tsconfig.json for the browser) decide them.
const nodeGlobals = {
  console: 'readonly',
  process: 'readonly',
  Buffer: 'readonly',
  URL: 'readonly',
  setTimeout: 'readonly',
  clearTimeout: 'readonly',
  setInterval: 'readonly',
  clearInterval: 'readonly',
  setImmediate: 'readonly',
  AbortController: 'readonly',
  AbortSignal: 'readonly',
  fetch: 'readonly',
};
const browserGlobals = {
  console: 'readonly',
  URL: 'readonly',
  setTimeout: 'readonly',
  clearTimeout: 'readonly',
  setInterval: 'readonly',
  clearInterval: 'readonly',
  AbortController: 'readonly',
  AbortSignal: 'readonly',
  fetch: 'readonly',
  document: 'readonly',
  window: 'readonly',
};

// Layering (DESIGN.md "Shape"). Each rule is a regular expression on the import specifier.
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A relative specifier that passes through a folder with one of these names. */
const intoFolder = (...names) => `^\\.{1,2}/(.*/)?(${names.map(escape).join('|')})(/|$)`;
/** A package, or one of its subpaths. */
const packages = (...names) => `^(${names.map(escape).join('|')})(/|$)`;
const nodeBuiltins = `^(node:|(${builtinModules.map(escape).join('|')})$)`;
const NODE_ONLY_PACKAGES = ['electron', 'electron-store', 'better-sqlite3', 'sharp', 'undici'];

const forbidden = {
  uiInCore: {
    regex: packages('electron', 'electron-store', 'react', 'react-dom', 'zustand'),
    message:
      'main/core is Electron-free and UI-free (it runs in the CLI, the web host and tests): put shell code in main/electron, UI code in renderer/.',
  },
  hostsInCore: {
    regex: intoFolder('cli', 'web', 'electron', 'simulator', 'renderer'),
    message:
      'main/core must not import the CLI, the web host, the Electron shell, the simulator or the renderer: they depend on the core, never the other way round.',
  },
  nodeInShared: {
    regex: nodeBuiltins,
    message: 'shared/ also runs in the browser: no Node built-ins here (move the code to main/).',
  },
  nodePackagesInShared: {
    regex: packages(...NODE_ONLY_PACKAGES),
    message:
      'shared/ also runs in the browser: no Node-only packages here (move the code to main/).',
  },
  sidesInShared: {
    regex: intoFolder('main', 'renderer'),
    message: 'shared/ is imported by main and renderer, so it imports neither of them.',
  },
  nodeInRenderer: {
    regex: nodeBuiltins,
    message: 'The renderer is browser code: no Node built-ins (ask main through the preload API).',
  },
  nodePackagesInRenderer: {
    regex: packages(...NODE_ONLY_PACKAGES),
    message:
      'The renderer is browser code: no Electron or Node-only packages (ask main through the preload API).',
  },
  mainInRenderer: {
    regex: intoFolder('main'),
    message: 'The renderer imports only shared/ and its own code, never main/.',
  },
  sideInSimulator: {
    regex: intoFolder('cli', 'electron'),
    message:
      'The simulator is a component beside the core: it never imports the CLI or the Electron shell.',
  },
  engineInSimulator: {
    regex: '^\\.{1,2}/(.*/)?core/engine(/|$)',
    message:
      'The simulator plays the gateway: it never imports the engine that it is used to test.',
  },
  electronInSimulator: {
    regex: packages('electron', 'electron-store'),
    message: 'The simulator runs under Node alone (CLI demo, tests): no Electron.',
  },
  nodeInPreload: {
    regex: nodeBuiltins,
    message:
      'The preload runs in a sandboxed renderer: it can use electron (contextBridge, ipcRenderer), not Node built-ins.',
  },
  mainInPreload: {
    regex: intoFolder('core', 'cli', 'simulator', 'web'),
    message:
      'The preload runs in a sandboxed renderer: it forwards calls over IPC and imports no main code but shared/.',
  },
};

/** Static imports and re-exports (no-restricted-imports) and import() (no-restricted-syntax). */
function layer(files, rules) {
  return {
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: rules.map(({ regex, message }) => ({ regex, message, caseSensitive: true })) },
      ],
      'no-restricted-syntax': [
        'error',
        ...rules.map(({ regex, message }) => ({
          selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\/')}/]`,
          message,
        })),
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['node_modules', 'out', 'dist', 'coverage', '.scratch'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { ignores: ['renderer/**'], languageOptions: { globals: nodeGlobals } },
  { files: ['renderer/**'], languageOptions: { globals: browserGlobals } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  layer(['main/core/**'], [forbidden.uiInCore, forbidden.hostsInCore]),
  layer(
    ['shared/**'],
    [forbidden.nodeInShared, forbidden.nodePackagesInShared, forbidden.sidesInShared],
  ),
  layer(
    ['renderer/**'],
    [forbidden.nodeInRenderer, forbidden.nodePackagesInRenderer, forbidden.mainInRenderer],
  ),
  layer(
    ['main/simulator/**'],
    [forbidden.sideInSimulator, forbidden.engineInSimulator, forbidden.electronInSimulator],
  ),
  layer(['main/electron/preload.ts'], [forbidden.nodeInPreload, forbidden.mainInPreload]),
  // React: hooks called as React allows, effects that name what they read (a stale closure
  // is a bug that shows only sometimes), and what screen readers and keyboards need.
  {
    files: ['renderer/**/*.{ts,tsx}', 'test/unit/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  { files: ['renderer/**/*.tsx'], ...jsxA11y.flatConfigs.recommended },
  {
    files: ['renderer/**/*.tsx'],
    rules: {
      // a list that scrolls takes the focus, so the keyboard can scroll it (WCAG 2.1.1)
      'jsx-a11y/no-noninteractive-tabindex': ['error', { roles: ['tabpanel', 'list'] }],
      // the videos are generated pictures that move: there is no speech to caption
      'jsx-a11y/media-has-caption': 'off',
    },
  },
);
