import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute } from 'node:path';
import vm from 'node:vm';
import { acrossBridge } from './context-bridge.ts';
import {
  ipcEventFrom,
  standIn,
  type WebContents,
  type WebFrameMain,
} from './electron-stand-in/index.ts';

/**
 * What a sandboxed preload's `require` may load, as Electron's "Process Sandboxing" page lists
 * it: `electron` (its renderer modules), `events`, `timers`, `url`. Anything else a bundled
 * preload asks for fails here as it would in the app: "module not found".
 */
export const SANDBOXED_PRELOAD_MODULES = ['electron', 'events', 'timers', 'url'] as const;

/** Renderer modules of `electron` this stand-in does not offer: using one fails loudly. */
const NOT_OFFERED = ['crashReporter', 'nativeImage', 'webFrame', 'webUtils'];

const nodeRequire = createRequire(import.meta.url);

/** The preload's end of IPC for one frame: its messages leave as that frame's. */
export class IpcRenderer extends EventEmitter {
  private readonly contents: WebContents;
  private readonly frame: WebFrameMain;

  constructor(contents: WebContents, frame: WebFrameMain) {
    super();
    this.contents = contents;
    this.frame = frame;
  }

  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    return standIn.ipc.invoke(channel, ipcEventFrom(this.contents, this.frame), args);
  }

  send(channel: string, ...args: unknown[]): void {
    standIn.ipc.send(channel, ipcEventFrom(this.contents, this.frame), args);
  }

  sendSync(channel: string): never {
    throw new Error(`ipcRenderer.sendSync('${channel}'): not offered by the stand-in`);
  }
}

export interface LoadedPreload {
  /** What the preload exposed on the page's `window`, as the page sees it (bridged). */
  mainWorld: Record<string, unknown>;
  ipcRenderer: IpcRenderer;
}

/**
 * Runs the preload of `contents` (its `webPreferences.preload`) in `frame` (the main frame
 * unless given) the way Electron runs a sandboxed one: its source wrapped in
 * `function (require, process, Buffer, global, setImmediate, clearImmediate, exports, module)`
 * and run in a context of its own (the isolated world: browser globals, no Node), `require`
 * limited to SANDBOXED_PRELOAD_MODULES, and a `contextBridge` whose `exposeInMainWorld` copies
 * the API as Electron does. Refuses a window that is not sandboxed and context-isolated: this
 * is the only way Atelier runs its preload.
 */
export function runSandboxedPreload(
  contents: WebContents,
  frame: WebFrameMain = contents.mainFrame,
): LoadedPreload {
  const preferences = contents.getLastWebPreferences();
  if (preferences['sandbox'] !== true || preferences['contextIsolation'] !== true) {
    throw new Error(
      'The window is not sandboxed and context-isolated: its preload would run with Node.',
    );
  }
  const path = preferences['preload'];
  if (typeof path !== 'string' || !isAbsolute(path)) {
    throw new Error(`The window's preload must be an absolute path (got ${String(path)}).`);
  }
  const source = readFileSync(path, 'utf8');

  const ipcRenderer = new IpcRenderer(contents, frame);
  frame.renderer = {
    receive: (channel, args) =>
      ipcRenderer.emit(channel, { sender: ipcRenderer, senderId: 0, ports: [] }, ...args),
  };
  const mainWorld: Record<string, unknown> = {};
  const contextBridge = {
    exposeInMainWorld(key: string, api: unknown) {
      if (Object.hasOwn(mainWorld, key)) {
        throw new Error('Cannot bind an API on top of an existing property on the window object');
      }
      mainWorld[key] = acrossBridge(api);
    },
  };
  const electron: Record<string, unknown> = { contextBridge, ipcRenderer };
  for (const name of NOT_OFFERED) electron[name] = notOffered(name);
  const loadable: Record<(typeof SANDBOXED_PRELOAD_MODULES)[number], () => unknown> = {
    electron: () => electron,
    events: () => nodeRequire('node:events'),
    timers: () => nodeRequire('node:timers'),
    url: () => nodeRequire('node:url'),
  };
  const preloadRequire = (name: string) => {
    if (Object.hasOwn(loadable, name)) return loadable[name as keyof typeof loadable]();
    throw new Error(`module not found: ${name}`);
  };

  const world = isolatedWorld();
  const wrapped = new vm.Script(
    `(function (require, process, Buffer, global, setImmediate, clearImmediate, exports, module) {${source}\n})`,
    { filename: path },
  ).runInContext(world) as (...args: unknown[]) => void;
  const exports = {};
  try {
    wrapped(
      preloadRequire,
      preloadProcess(),
      Buffer,
      vm.runInContext('globalThis', world),
      setImmediate,
      clearImmediate,
      exports,
      { exports },
    );
  } catch (error) {
    throw new Error(`The preload ${path} failed in a sandboxed renderer: ${String(error)}`, {
      cause: error,
    });
  }
  return { mainWorld, ipcRenderer };
}

/** A fresh realm with what a page's isolated world has (no require, no __dirname, no Node). */
function isolatedWorld(): vm.Context {
  const world = vm.createContext(
    {
      console,
      URL,
      URLSearchParams,
      TextEncoder,
      TextDecoder,
      structuredClone,
      setTimeout,
      clearTimeout,
      setInterval,
      clearInterval,
      queueMicrotask,
      AbortController,
      AbortSignal,
      Event,
      EventTarget,
      atob,
      btoa,
      crypto: globalThis.crypto,
      performance,
      fetch,
      Blob,
      Headers,
      Request,
      Response,
    },
    { name: 'preload (isolated world)' },
  );
  vm.runInContext('globalThis.window = globalThis.self = globalThis;', world);
  return world;
}

/** The sandboxed preload's `process`: an emitter with a subset of Node's fields. */
function preloadProcess(): EventEmitter {
  return Object.assign(new EventEmitter(), {
    type: 'renderer',
    sandboxed: true,
    contextIsolated: true,
    platform: process.platform,
    arch: process.arch,
    pid: process.pid,
    argv: [] as string[],
    env: { ...process.env },
    version: process.version,
    versions: { ...process.versions },
  });
}

function notOffered(name: string): object {
  return new Proxy(
    {},
    {
      get(_target, property) {
        throw new Error(
          `electron.${name}.${String(property)}: not offered by the stand-in (test/desktop/sandboxed-preload.ts)`,
        );
      },
    },
  );
}
