/**
 * The `electron` module as the built main process (out/main/index.js) sees it, under plain
 * Node: `npm run check:desktop` maps the specifier `electron` to this file at resolution
 * (check-desktop.ts). Electron's binary cannot run here, so this behaves like Electron where the
 * shell depends on it, and refuses what Electron refuses:
 *
 * - `app` is ready only when `standIn.launch()` says so, after the main script ran (as Electron
 *   finishes launching after it): `BrowserWindow`, `screen` and `protocol.handle` throw before,
 *   `protocol.registerSchemesAsPrivileged` after, `safeStorage` has no encryption before.
 * - `ipcMain.handle` refuses a second handler for a channel; every IPC argument and result
 *   crosses by `structuredClone` (a function or a class's methods never do), and a handler's
 *   error reaches the renderer as Electron words it.
 * - `BrowserWindow` keeps the options it was made with (`webContents.getLastWebPreferences()`);
 *   `loadURL` loads the page through the registered protocol handler and fails on an error
 *   status; `webContents.send` clones and delivers to the page's preload (sandboxed-preload.ts).
 * - `protocol.handle` keeps its handler; `net.fetch` of a `file:` URL answers the whole file and
 *   ignores `Range`, as Electron's does.
 * - `safeStorage` seals reversibly (not encryption: the plain text never reaches the disk);
 *   `app.getPath` answers folders inside the temporary root given to `standIn.configure`;
 *   `shell.trashItem` moves the file into `<root>/Trash`.
 *
 * Everything the shell asked of the system (notifications, menus, dialogs, progress bars, shell
 * calls) is kept in `standIn` for the check to read.
 */
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { readFile, rename } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getMimeType } from 'hono/utils/mime';

// ---- what the check reads and drives ------------------------------------------------------

interface Configuration {
  /** The temporary folder every path of the app lives in. */
  root: string;
  /** The app's folder (package.json): getAppPath, getName, getVersion. */
  appPath: string;
}

/** The page side of a frame: what `webContents.send` and `ipcRenderer` talk to. */
export interface RendererPort {
  /** A message from main (`webContents.send`), already cloned. */
  receive(channel: string, args: unknown[]): void;
}

/** A preventable event, as Electron passes to `before-quit`, `will-navigate`… */
export interface PreventableEvent {
  defaultPrevented: boolean;
  preventDefault(): void;
}

function preventable(): PreventableEvent {
  return {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}

const SEAL = Buffer.from('stand-in-sealed:');

function initialState() {
  return {
    config: null as Configuration | null,
    ready: false,
    quitting: false,
    exitCode: null as number | null,
    singleInstanceLock: false,
    privilegedSchemes: [] as Array<{ scheme: string; privileges?: Record<string, boolean> }>,
    protocolHandlers: new Map<string, (request: Request) => Response | Promise<Response>>(),
    ipcHandlers: new Map<string, (event: unknown, ...args: unknown[]) => unknown>(),
    errorBoxes: [] as Array<{ title: string; content: string }>,
    notifications: [] as Array<{ title: string; body: string }>,
    shellCalls: [] as Array<{ call: string; target: string }>,
    saveDialogs: [] as unknown[],
    applicationMenu: null as Menu | null,
    progressBars: [] as Array<{ window: number; progress: number; mode: string | undefined }>,
    paths: {} as Record<string, string>,
  };
}

let state = initialState();
let onQuit: (code: number) => void = () => {};
let quitted = new Promise<number>((resolve) => (onQuit = resolve));

function config(): Configuration {
  if (!state.config) throw new Error('The stand-in is not configured: call standIn.configure().');
  return state.config;
}

function requireReady(api: string): void {
  if (!state.ready) throw new Error(`${api} cannot be used before the app is ready`);
}

/** The stand-in's own controls and records: not part of Electron's API. */
export const standIn = {
  /** Where the app's folders go, and whose package.json it is. Before anything else. */
  configure(options: Configuration): void {
    state.config = options;
    const home = join(options.root, 'home');
    const appData = join(options.root, 'appData');
    const userData = join(appData, appName());
    state.paths = {
      home,
      appData,
      userData,
      sessionData: userData,
      temp: join(options.root, 'tmp'),
      exe: join(options.root, 'electron'),
      module: join(options.root, 'electron'),
      desktop: join(home, 'Desktop'),
      documents: join(home, 'Documents'),
      downloads: join(home, 'Downloads'),
      music: join(home, 'Music'),
      pictures: join(home, 'Pictures'),
      videos: join(home, 'Videos'),
      logs: join(userData, 'logs'),
      crashDumps: join(userData, 'Crashpad'),
    };
  },

  /** Electron finished launching: `ready`, and `whenReady()` resolves. */
  async launch(): Promise<void> {
    if (state.ready) return;
    // Chromium keeps its profile in userData: it exists once the app is ready
    mkdirSync(state.paths['userData']!, { recursive: true });
    state.ready = true;
    app.emit('ready', preventable(), {});
    readyResolve();
  },

  /** Resolves with the exit code once the app quit (app.quit() went through, or app.exit()). */
  quitted: (): Promise<number> => quitted,

  /** The handler `protocol.handle` registered for the URL's scheme answers the request. */
  async fetch(input: Request | string): Promise<Response> {
    const request = typeof input === 'string' ? new Request(input) : input;
    const scheme = new URL(request.url).protocol.slice(0, -1);
    const handler = state.protocolHandlers.get(scheme);
    if (!handler) throw new Error(`net::ERR_UNKNOWN_URL_SCHEME: no handler for ${scheme}:`);
    return handler(request);
  },

  /** The privileges `registerSchemesAsPrivileged` gave a scheme, or null. */
  privilegesOf(scheme: string): Record<string, boolean> | null {
    return state.privilegedSchemes.find((s) => s.scheme === scheme)?.privileges ?? null;
  },

  ipc: {
    /** A renderer's `ipcRenderer.invoke`, as Electron carries it. */
    async invoke(channel: string, event: IpcMainInvokeEvent, args: unknown[]): Promise<unknown> {
      const cloned = cloneForIpc(args); // the renderer serializes them before sending
      const handler = state.ipcHandlers.get(channel);
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      let result: unknown;
      try {
        result = await handler(event, ...cloned);
      } catch (error) {
        throw new Error(`Error invoking remote method '${channel}': ${String(error)}`, {
          cause: error,
        });
      }
      try {
        return structuredClone(result);
      } catch (error) {
        throw new Error(
          `Error invoking remote method '${channel}': Error: An object could not be cloned.`,
          { cause: error },
        );
      }
    },
    /** A renderer's `ipcRenderer.send`: cloned now, delivered on a later turn. */
    send(channel: string, event: IpcMainEvent, args: unknown[]): void {
      const cloned = cloneForIpc(args);
      setImmediate(() => ipcMain.emit(channel, event, ...cloned));
    },
    channels: (): string[] => [...state.ipcHandlers.keys()],
  },

  /** The records, read by the check. */
  get errorBoxes() {
    return state.errorBoxes;
  },
  get notifications() {
    return state.notifications;
  },
  get shellCalls() {
    return state.shellCalls;
  },
  get applicationMenu() {
    return state.applicationMenu;
  },
  get progressBars() {
    return state.progressBars;
  },

  /** Back to a process that never launched (for the stand-in's own tests). */
  reset(): void {
    for (const window of BrowserWindow.getAllWindows()) window.destroy();
    state = initialState();
    quitted = new Promise<number>((resolve) => (onQuit = resolve));
    readyPromise = new Promise<void>((resolve) => (readyResolve = resolve));
    for (const emitter of [app, ipcMain]) emitter.removeAllListeners();
    session.defaultSession = new Session();
  },
};

/** IPC arguments and results: the structured clone algorithm, as Electron words its failure. */
export function cloneForIpc<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch (error) {
    throw new Error('An object could not be cloned.', { cause: error });
  }
}

function appName(): string {
  const json = JSON.parse(readFileSync(join(config().appPath, 'package.json'), 'utf8')) as {
    name: string;
    productName?: string;
    version: string;
  };
  return json.productName ?? json.name;
}

// ---- app -------------------------------------------------------------------------------------

let readyResolve: () => void = () => {};
let readyPromise = new Promise<void>((resolve) => (readyResolve = resolve));

class App extends EventEmitter {
  readonly isPackaged = false;

  whenReady(): Promise<void> {
    return readyPromise;
  }

  isReady(): boolean {
    return state.ready;
  }

  getPath(name: string): string {
    const path = state.paths[name];
    if (path === undefined) throw new Error(`Failed to get '${name}' path`);
    return path;
  }

  setPath(name: string, path: string): void {
    if (!isAbsolute(path)) throw new Error(`Path must be absolute: ${path}`);
    state.paths[name] = path;
  }

  getAppPath(): string {
    return config().appPath;
  }

  getName(): string {
    return appName();
  }

  getVersion(): string {
    const json = JSON.parse(readFileSync(join(config().appPath, 'package.json'), 'utf8')) as {
      version: string;
    };
    return json.version;
  }

  requestSingleInstanceLock(): boolean {
    state.singleInstanceLock = true;
    return true;
  }

  hasSingleInstanceLock(): boolean {
    return state.singleInstanceLock;
  }

  setAppUserModelId(_id: string): void {}

  /** As Electron: `before-quit` (preventable), the windows closed, `will-quit`, `quit`. */
  quit(): void {
    if (state.quitting || state.exitCode !== null) return;
    const beforeQuit = preventable();
    this.emit('before-quit', beforeQuit);
    if (beforeQuit.defaultPrevented) return;
    state.quitting = true;
    setImmediate(() => {
      for (const window of BrowserWindow.getAllWindows()) window.destroy();
      const willQuit = preventable();
      this.emit('will-quit', willQuit);
      if (willQuit.defaultPrevented) {
        state.quitting = false;
        return;
      }
      this.finish(0);
    });
  }

  /** Quits at once: no `before-quit`, no `will-quit`. */
  exit(code = 0): void {
    for (const window of BrowserWindow.getAllWindows()) window.destroy();
    this.finish(code);
  }

  private finish(code: number): void {
    if (state.exitCode !== null) return;
    state.exitCode = code;
    this.emit('quit', preventable(), code);
    onQuit(code);
  }
}

export const app = new App();

// ---- windows, web contents, frames ---------------------------------------------------------

let nextId = 1;

/** A frame of a page (WebFrameMain): what IPC's sender check reads. */
export class WebFrameMain {
  readonly routingId = nextId++;
  readonly processId: number;
  readonly parent: WebFrameMain | null;
  readonly frames: WebFrameMain[] = [];
  url: string;
  /** The page side, once a preload runs in this frame. */
  renderer: RendererPort | null = null;

  constructor(url: string, processId: number, parent: WebFrameMain | null = null) {
    this.url = url;
    this.processId = processId;
    this.parent = parent;
    parent?.frames.push(this);
  }

  get top(): WebFrameMain {
    return this.parent ? this.parent.top : this;
  }

  /** A frame inside this one (an iframe of the page), at `url`. */
  addChild(url: string): WebFrameMain {
    return new WebFrameMain(url, this.processId, this);
  }
}

export interface IpcMainInvokeEvent {
  type: 'frame';
  sender: WebContents;
  senderFrame: WebFrameMain | null;
  frameId: number;
  processId: number;
}

export interface IpcMainEvent extends IpcMainInvokeEvent {
  returnValue: unknown;
  ports: unknown[];
  reply(channel: string, ...args: unknown[]): void;
}

/** The event main's IPC handlers get for a message from `frame` of `contents`. */
export function ipcEventFrom(contents: WebContents, frame: WebFrameMain): IpcMainEvent {
  return {
    type: 'frame',
    sender: contents,
    senderFrame: frame,
    frameId: frame.routingId,
    processId: frame.processId,
    returnValue: undefined,
    ports: [],
    reply: (channel, ...args) => frame.renderer?.receive(channel, cloneForIpc(args)),
  };
}

type WebPreferences = Record<string, unknown>;
type WindowOpenHandler = (details: { url: string }) => { action: 'allow' | 'deny' };

/** Electron's defaults since Electron 20: sandboxed, isolated, no Node. */
const DEFAULT_WEB_PREFERENCES: WebPreferences = {
  sandbox: true,
  contextIsolation: true,
  nodeIntegration: false,
  webSecurity: true,
};

export class WebContents extends EventEmitter {
  readonly id = nextId++;
  readonly mainFrame: WebFrameMain;
  readonly session: Session;
  windowOpenHandler: WindowOpenHandler | null = null;
  private readonly preferences: WebPreferences;
  private destroyed = false;

  constructor(preferences: WebPreferences) {
    super();
    this.preferences = { ...DEFAULT_WEB_PREFERENCES, ...preferences };
    this.mainFrame = new WebFrameMain('about:blank', 1000 + this.id);
    this.session = session.defaultSession;
  }

  /** The web preferences the contents were created with (Electron's own accessor). */
  getLastWebPreferences(): WebPreferences {
    return { ...this.preferences };
  }

  getURL(): string {
    return this.mainFrame.url;
  }

  /** Loads `url`; a scheme with a protocol handler is asked for the page, and must answer 2xx. */
  async loadURL(url: string): Promise<void> {
    this.assertAlive();
    const scheme = new URL(url).protocol.slice(0, -1);
    if (state.protocolHandlers.has(scheme)) {
      const response = await standIn.fetch(url);
      await response.arrayBuffer();
      if (!response.ok) {
        this.emit('did-fail-load', preventable(), -379, 'ERR_HTTP_RESPONSE_CODE_FAILURE', url);
        throw new Error(`ERR_HTTP_RESPONSE_CODE_FAILURE (-379) loading '${url}'`);
      }
    }
    this.mainFrame.url = url;
    this.emit('dom-ready', preventable());
    this.emit('did-finish-load', preventable());
  }

  /** To the main frame's page, cloned, on a later turn; throws for what cannot be cloned. */
  send(channel: string, ...args: unknown[]): void {
    this.assertAlive();
    const cloned = cloneForIpc(args);
    const renderer = this.mainFrame.renderer;
    if (renderer) setImmediate(() => renderer.receive(channel, cloned));
  }

  setWindowOpenHandler(handler: WindowOpenHandler): void {
    this.windowOpenHandler = handler;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('destroyed');
  }

  private assertAlive(): void {
    if (this.destroyed) throw new Error('Object has been destroyed');
  }
}

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export class BrowserWindow extends EventEmitter {
  private static readonly all = new Set<BrowserWindow>();

  static getAllWindows(): BrowserWindow[] {
    return [...BrowserWindow.all];
  }

  static fromWebContents(contents: unknown): BrowserWindow | null {
    return [...BrowserWindow.all].find((w) => w.webContents === contents) ?? null;
  }

  static fromId(id: number): BrowserWindow | null {
    return [...BrowserWindow.all].find((w) => w.id === id) ?? null;
  }

  readonly id = nextId++;
  readonly webContents: WebContents;
  /** What the window was created with, as given. */
  readonly options: Readonly<Record<string, unknown>>;
  private bounds: Rect;
  private visible = false;
  private maximized = false;
  private minimized = false;
  private destroyed = false;

  constructor(options: Record<string, unknown> = {}) {
    super();
    requireReady('BrowserWindow');
    this.options = structuredClone(options);
    const number = (key: string, fallback: number) =>
      typeof options[key] === 'number' ? (options[key] as number) : fallback;
    this.bounds = {
      x: number('x', 0),
      y: number('y', 0),
      width: number('width', 800),
      height: number('height', 600),
    };
    this.webContents = new WebContents((options['webPreferences'] as WebPreferences) ?? {});
    BrowserWindow.all.add(this);
    app.emit('web-contents-created', preventable(), this.webContents);
    app.emit('browser-window-created', preventable(), this);
    this.webContents.on('did-finish-load', () => this.emit('ready-to-show'));
  }

  loadURL(url: string): Promise<void> {
    return this.webContents.loadURL(url);
  }

  show(): void {
    this.visible = true;
    this.minimized = false;
  }
  hide(): void {
    this.visible = false;
  }
  isVisible(): boolean {
    return this.visible;
  }
  focus(): void {}
  restore(): void {
    this.minimized = false;
  }
  minimize(): void {
    this.minimized = true;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  maximize(): void {
    this.maximized = true;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  getBounds(): Rect {
    return { ...this.bounds };
  }
  getNormalBounds(): Rect {
    return { ...this.bounds };
  }
  setBounds(bounds: Partial<Rect>): void {
    this.bounds = { ...this.bounds, ...bounds };
  }
  setProgressBar(progress: number, options?: { mode?: string }): void {
    state.progressBars.push({ window: this.id, progress, mode: options?.mode });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }

  /** As a person closing it: `close` (preventable), then `closed`. */
  close(): void {
    if (this.destroyed) return;
    const event = preventable();
    this.emit('close', event);
    if (!event.defaultPrevented) this.destroy();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    BrowserWindow.all.delete(this);
    this.webContents.destroy();
    this.emit('closed');
    if (BrowserWindow.all.size === 0 && !state.quitting) app.emit('window-all-closed');
  }
}

// ---- IPC -------------------------------------------------------------------------------------

class IpcMain extends EventEmitter {
  handle(channel: string, handler: (event: unknown, ...args: unknown[]) => unknown): void {
    if (state.ipcHandlers.has(channel)) {
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    }
    state.ipcHandlers.set(channel, handler);
  }

  handleOnce(channel: string, handler: (event: unknown, ...args: unknown[]) => unknown): void {
    this.handle(channel, (event, ...args) => {
      this.removeHandler(channel);
      return handler(event, ...args);
    });
  }

  removeHandler(channel: string): void {
    state.ipcHandlers.delete(channel);
  }
}

export const ipcMain = new IpcMain();

// ---- protocol, session, net ----------------------------------------------------------------

export const protocol = {
  registerSchemesAsPrivileged(
    schemes: Array<{ scheme: string; privileges?: Record<string, boolean> }>,
  ): void {
    if (state.ready) {
      throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready');
    }
    state.privilegedSchemes.push(...structuredClone(schemes));
  },
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void {
    requireReady('protocol.handle');
    if (state.protocolHandlers.has(scheme)) {
      throw new Error(`Failed to register protocol: ${scheme}`);
    }
    state.protocolHandlers.set(scheme, handler);
  },
  unhandle(scheme: string): void {
    state.protocolHandlers.delete(scheme);
  },
  isProtocolHandled(scheme: string): boolean {
    return state.protocolHandlers.has(scheme);
  },
};

type HeadersListener = (
  details: { url: string; responseHeaders?: Record<string, string[]> },
  callback: (response: { responseHeaders?: Record<string, string[]>; cancel?: boolean }) => void,
) => void;

export class Session {
  permissionRequestHandler: ((...args: never[]) => void) | null = null;
  permissionCheckHandler: ((...args: never[]) => boolean) | null = null;
  headersReceived: HeadersListener | null = null;
  readonly webRequest = {
    onHeadersReceived: (listener: HeadersListener | null) => {
      this.headersReceived = listener;
    },
  };

  setPermissionRequestHandler(handler: ((...args: never[]) => void) | null): void {
    this.permissionRequestHandler = handler;
  }

  setPermissionCheckHandler(handler: ((...args: never[]) => boolean) | null): void {
    this.permissionCheckHandler = handler;
  }

  /** The headers a response reaches the page with, after `onHeadersReceived`. */
  headersOf(url: string, responseHeaders: Record<string, string[]>): Record<string, string[]> {
    let result = responseHeaders;
    this.headersReceived?.({ url, responseHeaders }, (response) => {
      if (response.responseHeaders) result = response.responseHeaders;
    });
    return result;
  }
}

export const session = { defaultSession: new Session() };

export const net = {
  /** http(s) as fetch; `file:` the whole file, `Range` ignored (as Electron's file loader). */
  async fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.protocol === 'file:') {
      const path = fileURLToPath(url);
      const type = getMimeType(path) ?? 'application/octet-stream';
      return new Response(await readFile(path), { status: 200, headers: { 'content-type': type } });
    }
    if (state.protocolHandlers.has(url.protocol.slice(0, -1))) return standIn.fetch(request);
    return fetch(request);
  },
};

// ---- the system: keyring, shell, dialogs, menus, notifications, screen ---------------------

export const safeStorage = {
  isEncryptionAvailable: (): boolean => state.ready,
  isAsyncEncryptionAvailable: async (): Promise<boolean> => state.ready,
  getSelectedStorageBackend: (): string => (state.ready ? 'gnome_libsecret' : 'unknown'),
  encryptString(plain: string): Buffer {
    if (!state.ready) throw new Error('Encryption is not available.');
    return Buffer.concat([SEAL, Buffer.from(plain, 'utf8').map((b) => b ^ 0x5a)]);
  },
  decryptString(sealed: Buffer): string {
    if (!sealed.subarray(0, SEAL.length).equals(SEAL)) {
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.');
    }
    return Buffer.from(sealed.subarray(SEAL.length).map((b) => b ^ 0x5a)).toString('utf8');
  },
  async encryptStringAsync(plain: string): Promise<Buffer> {
    return safeStorage.encryptString(plain);
  },
  async decryptStringAsync(sealed: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }> {
    return { result: safeStorage.decryptString(sealed), shouldReEncrypt: false };
  },
};

export const shell = {
  async openExternal(url: string): Promise<void> {
    state.shellCalls.push({ call: 'openExternal', target: url });
  },
  showItemInFolder(path: string): void {
    state.shellCalls.push({ call: 'showItemInFolder', target: path });
  },
  /** Resolves with an error message, or '' when the file opened (Electron's contract). */
  async openPath(path: string): Promise<string> {
    state.shellCalls.push({ call: 'openPath', target: path });
    return existsSync(path) ? '' : `Failed to open path: ${path}`;
  },
  async trashItem(path: string): Promise<void> {
    const trash = join(config().root, 'Trash');
    mkdirSync(trash, { recursive: true });
    try {
      await rename(path, join(trash, `${nextId++}-${basename(path)}`));
    } catch {
      throw new Error(`Failed to move item to trash: ${path}`);
    }
    state.shellCalls.push({ call: 'trashItem', target: path });
  },
};

export const dialog = {
  showErrorBox(title: string, content: string): void {
    state.errorBoxes.push({ title, content });
  },
  async showSaveDialog(...args: unknown[]): Promise<{ canceled: boolean; filePath: string }> {
    state.saveDialogs.push(args);
    return { canceled: true, filePath: '' };
  },
  async showOpenDialog(): Promise<{ canceled: boolean; filePaths: string[] }> {
    return { canceled: true, filePaths: [] };
  },
  async showMessageBox(): Promise<{ response: number; checkboxChecked: boolean }> {
    return { response: 0, checkboxChecked: false };
  },
};

interface MenuItemOptions {
  role?: string;
  label?: string;
  type?: string;
  submenu?: MenuItemOptions[] | Menu;
  click?: () => void;
}

export class Menu {
  static buildFromTemplate(template: MenuItemOptions[]): Menu {
    return new Menu(template);
  }

  static setApplicationMenu(menu: Menu | null): void {
    state.applicationMenu = menu;
  }

  static getApplicationMenu(): Menu | null {
    return state.applicationMenu;
  }

  readonly items: MenuItemOptions[];

  constructor(template: MenuItemOptions[] = []) {
    const check = (items: MenuItemOptions[]) => {
      for (const item of items) {
        // Electron's own refusal, word for word
        if (item.role === undefined && item.label === undefined && item.type === undefined) {
          throw new Error(
            'Invalid template for MenuItem: must have at least one of label, role or type',
          );
        }
        if (Array.isArray(item.submenu)) check(item.submenu);
      }
    };
    check(template);
    this.items = template;
  }
}

export class Notification extends EventEmitter {
  static isSupported(): boolean {
    return true;
  }

  readonly title: string;
  readonly body: string;

  constructor(options: { title?: string; body?: string } = {}) {
    super();
    this.title = options.title ?? '';
    this.body = options.body ?? '';
  }

  show(): void {
    state.notifications.push({ title: this.title, body: this.body });
    this.emit('show', preventable());
  }

  close(): void {
    this.emit('close', preventable());
  }
}

const PRIMARY_DISPLAY = {
  id: 1,
  scaleFactor: 1,
  bounds: { x: 0, y: 0, width: 1920, height: 1080 },
  workArea: { x: 0, y: 0, width: 1920, height: 1040 },
};

export const screen = {
  getPrimaryDisplay() {
    requireReady("The 'screen' module");
    return PRIMARY_DISPLAY;
  },
  getAllDisplays() {
    requireReady("The 'screen' module");
    return [PRIMARY_DISPLAY];
  },
  getDisplayMatching(_rect: Rect) {
    requireReady("The 'screen' module");
    return PRIMARY_DISPLAY;
  },
  getDisplayNearestPoint(_point: { x: number; y: number }) {
    requireReady("The 'screen' module");
    return PRIMARY_DISPLAY;
  },
};

export default {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  net,
  Notification,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
};
