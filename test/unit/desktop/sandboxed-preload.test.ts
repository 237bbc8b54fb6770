import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { BrowserWindow, ipcMain, standIn } from '../../desktop/electron-stand-in/index.ts';
import { runSandboxedPreload } from '../../desktop/sandboxed-preload.ts';

// The built preload runs here as Electron runs a sandboxed one: if these held less than
// Electron does, check:desktop would pass a preload the app cannot load.
const ROOT = resolve(import.meta.dirname, '../../..');
const temp = mkdtempSync(join(tmpdir(), 'atelier-preload-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

beforeEach(async () => {
  standIn.reset();
  standIn.configure({ root: mkdtempSync(join(temp, 'root-')), appPath: ROOT });
  await standIn.launch();
});

let count = 0;
/** A window whose preload is `source`, with these web preferences. */
function windowWith(source: string, preferences: Record<string, unknown> = {}) {
  const preload = join(temp, `preload-${++count}.cjs`);
  writeFileSync(preload, source);
  return new BrowserWindow({
    webPreferences: { sandbox: true, contextIsolation: true, preload, ...preferences },
  });
}

const expose = (body: string) => `const { contextBridge } = require('electron');\n${body}\n`;

describe('require in a sandboxed preload', () => {
  it.each(['electron', 'events', 'timers', 'url'])('loads %s', (name) => {
    const window = windowWith(
      expose(`contextBridge.exposeInMainWorld('loaded', require('${name}') ? 'yes' : 'no');`),
    );
    expect(runSandboxedPreload(window.webContents).mainWorld['loaded']).toBe('yes');
  });

  it.each(['fs', 'node:fs', 'path', 'node:events', 'electron/main', './chunk.cjs', 'zod'])(
    'refuses %s, as a sandboxed renderer does',
    (name) => {
      const window = windowWith(`require('${name}');`);
      expect(() => runSandboxedPreload(window.webContents)).toThrow(`module not found: ${name}`);
    },
  );

  it('runs without Node: no __dirname, no global process or require, browser globals', () => {
    const window = windowWith(
      expose(`contextBridge.exposeInMainWorld('seen', {
        dirname: typeof __dirname,
        globalProcess: typeof globalThis.process,
        globalRequire: typeof globalThis.require,
        sandboxed: process.sandboxed,
        window: typeof window,
        url: typeof URL,
        buffer: typeof Buffer,
      });`),
    );
    expect(runSandboxedPreload(window.webContents).mainWorld['seen']).toEqual({
      dirname: 'undefined',
      globalProcess: 'undefined',
      globalRequire: 'undefined',
      sandboxed: true,
      window: 'object',
      url: 'function',
      buffer: 'function',
    });
  });

  it('refuses a window that is not sandboxed and isolated, or a relative preload', () => {
    expect(() => runSandboxedPreload(windowWith('', { sandbox: false }).webContents)).toThrow(
      'not sandboxed',
    );
    expect(() =>
      runSandboxedPreload(windowWith('', { contextIsolation: false }).webContents),
    ).toThrow('not sandboxed and context-isolated');
    const relative = new BrowserWindow({ webPreferences: { preload: 'out/preload/index.cjs' } });
    expect(() => runSandboxedPreload(relative.webContents)).toThrow('absolute path');
  });
});

describe('contextBridge.exposeInMainWorld', () => {
  it('copies the API as Electron does: methods of a class and nested promises are dropped', async () => {
    const window = windowWith(
      expose(`
        class Api { method() { return 1; } }
        const api = new Api();
        api.own = (x) => ({ doubled: x.n * 2, when: new Date(7) });
        api.later = async () => ({ ok: true });
        api.fails = async () => { const e = new Error('nope'); e.secret = 's'; throw e; };
        api.nested = { promise: Promise.resolve(1), list: [1, 'a'] };
        contextBridge.exposeInMainWorld('api', api);`),
    );
    const api = runSandboxedPreload(window.webContents).mainWorld['api'] as {
      method?: unknown;
      own(x: { n: number }): unknown;
      later(): Promise<unknown>;
      fails(): Promise<unknown>;
      nested: unknown;
    };
    expect(api.method).toBeUndefined();
    expect(api.own({ n: 2 })).toEqual({ doubled: 4, when: new Date(7) });
    await expect(api.later()).resolves.toEqual({ ok: true });
    const error = await api.fails().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ message: 'nope' });
    expect((error as { secret?: string }).secret).toBeUndefined();
    expect(api.nested).toEqual({ promise: undefined, list: [1, 'a'] });
  });

  it('refuses to expose the same name twice', () => {
    const window = windowWith(
      expose(`contextBridge.exposeInMainWorld('a', {}); contextBridge.exposeInMainWorld('a', {});`),
    );
    expect(() => runSandboxedPreload(window.webContents)).toThrow(
      'Cannot bind an API on top of an existing property',
    );
  });
});

describe('ipcRenderer', () => {
  it('invokes main’s handlers as its frame, and hears what main sends to the page', async () => {
    const window = windowWith(`
      const { contextBridge, ipcRenderer } = require('electron');
      const heard = [];
      ipcRenderer.on('news', (_event, value) => heard.push(value));
      contextBridge.exposeInMainWorld('page', {
        ask: (value) => ipcRenderer.invoke('ask', value),
        heard: () => heard.slice(),
      });`);
    let frame: unknown;
    ipcMain.handle('ask', (event, value) => {
      frame = (event as { senderFrame: unknown }).senderFrame;
      return { echoed: value };
    });
    const page = runSandboxedPreload(window.webContents).mainWorld['page'] as {
      ask(value: unknown): Promise<unknown>;
      heard(): unknown[];
    };
    await expect(page.ask({ n: 1 })).resolves.toEqual({ echoed: { n: 1 } });
    expect(frame).toBe(window.webContents.mainFrame);
    window.webContents.send('news', { n: 2 });
    await new Promise((done) => setImmediate(done));
    expect(page.heard()).toEqual([{ n: 2 }]);
  });
});
