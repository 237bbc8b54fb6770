/**
 * A stand-in for the `electron` module, for unit tests of main/electron (the binary cannot run
 * here). Use it as Electron Fiddle does:
 *
 *   vi.mock('electron', () => import('../../support/electron-mock.ts'));
 *
 * then import the same names from this file to drive it (`mockState`, `invokeHandler`…) and
 * call `resetElectronMock()` in `beforeEach`. Only what main/electron uses is here; each fake
 * keeps what it was given so a test can assert on it.
 */
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface FakeDisplay {
  id: number;
  bounds: Rect;
  workArea: Rect;
}

const PRIMARY: FakeDisplay = {
  id: 1,
  bounds: { x: 0, y: 0, width: 1920, height: 1080 },
  workArea: { x: 0, y: 40, width: 1920, height: 1040 },
};

function initialState() {
  return {
    /** app.getPath(name); a name not here throws, as Electron does for an unknown name. */
    paths: {} as Record<string, string>,
    isPackaged: false,
    singleInstanceLock: true,
    encryptionAvailable: true,
    storageBackend: 'gnome_libsecret' as string,
    shouldReEncrypt: false,
    notificationsSupported: true,
    displays: [PRIMARY] as FakeDisplay[],
  };
}

/** What the fake system looks like; tests change it before calling the code under test. */
export const mockState = initialState();

let nextId = 1;

export class FakeFrame {
  url: string;
  readonly processId: number;
  readonly routingId: number;
  readonly parent: FakeFrame | null;

  constructor(url: string, parent: FakeFrame | null = null) {
    this.url = url;
    this.processId = 100;
    this.routingId = nextId++;
    this.parent = parent;
  }
}

export const session = {
  defaultSession: {
    permissionRequestHandler: null as null | ((...args: unknown[]) => void),
    permissionCheckHandler: null as null | ((...args: unknown[]) => boolean),
    headersReceived: null as null | ((...args: unknown[]) => void),
    setPermissionRequestHandler: vi.fn((handler: (...args: unknown[]) => void) => {
      session.defaultSession.permissionRequestHandler = handler;
    }),
    setPermissionCheckHandler: vi.fn((handler: (...args: unknown[]) => boolean) => {
      session.defaultSession.permissionCheckHandler = handler;
    }),
    webRequest: {
      onHeadersReceived: vi.fn((handler: (...args: unknown[]) => void) => {
        session.defaultSession.headersReceived = handler;
      }),
    },
  },
};

export class FakeWebContents extends EventEmitter {
  readonly id = nextId++;
  readonly mainFrame: FakeFrame;
  readonly session = session.defaultSession;
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  private destroyed = false;
  readonly send = vi.fn();
  readonly setWindowOpenHandler = vi.fn((handler: (details: { url: string }) => never) => {
    this.windowOpenHandler = handler;
  });

  constructor(url = 'atelier://app/index.html') {
    super();
    this.mainFrame = new FakeFrame(url);
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  /** As when the page's process goes away: 'destroyed' is emitted once. */
  destroy(): void {
    this.destroyed = true;
    this.emit('destroyed');
  }
}

export class BrowserWindow extends EventEmitter {
  static instances: BrowserWindow[] = [];
  static fromWebContents = vi.fn(
    (contents: unknown) => BrowserWindow.instances.find((w) => w.webContents === contents) ?? null,
  );
  static getAllWindows = vi.fn(() => [...BrowserWindow.instances]);

  readonly options: Record<string, unknown>;
  readonly webContents = new FakeWebContents();
  bounds: Rect;
  maximized = false;
  minimized = false;
  visible = false;
  private destroyed = false;
  readonly loadURL = vi.fn(async (_url: string) => {});
  readonly show = vi.fn(() => {
    this.visible = true;
  });
  readonly focus = vi.fn();
  readonly restore = vi.fn(() => {
    this.minimized = false;
  });
  readonly maximize = vi.fn(() => {
    this.maximized = true;
  });
  readonly setProgressBar = vi.fn();

  constructor(options: Record<string, unknown> = {}) {
    super();
    this.options = options;
    this.bounds = {
      x: (options['x'] as number | undefined) ?? 100,
      y: (options['y'] as number | undefined) ?? 100,
      width: (options['width'] as number | undefined) ?? 800,
      height: (options['height'] as number | undefined) ?? 600,
    };
    BrowserWindow.instances.push(this);
  }

  isMinimized(): boolean {
    return this.minimized;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  getNormalBounds(): Rect {
    return { ...this.bounds };
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

class FakeApp extends EventEmitter {
  readonly getPath = vi.fn((name: string) => {
    const path = mockState.paths[name];
    if (path === undefined) throw new Error(`Failed to get '${name}' path`);
    return path;
  });
  readonly getVersion = vi.fn(() => '0.1.0-test');
  readonly requestSingleInstanceLock = vi.fn(() => mockState.singleInstanceLock);
  readonly quit = vi.fn();
  readonly exit = vi.fn();
  readonly whenReady = vi.fn(async () => {});
  readonly setAppUserModelId = vi.fn();
  get isPackaged(): boolean {
    return mockState.isPackaged;
  }
}
export const app = new FakeApp();

/** IpcMain: `handle` keeps the handler; events (`on`) are a plain EventEmitter. */
class FakeIpcMain extends EventEmitter {
  readonly handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  readonly handle = vi.fn((channel: string, handler: (e: unknown, ...a: unknown[]) => unknown) => {
    if (this.handlers.has(channel)) {
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    }
    this.handlers.set(channel, handler);
  });
  readonly removeHandler = vi.fn((channel: string) => {
    this.handlers.delete(channel);
  });
}
export const ipcMain = new FakeIpcMain();

/** Calls the handler `ipcMain.handle` registered for `channel`, as a renderer's invoke would. */
export async function invokeHandler(
  channel: string,
  event: unknown,
  ...args: unknown[]
): Promise<unknown> {
  const handler = ipcMain.handlers.get(channel);
  if (!handler) throw new Error(`No handler registered for '${channel}'`);
  return handler(event, ...args);
}

/** An IPC event as Electron builds it, from a frame of a web contents. */
export function ipcEvent(sender: FakeWebContents, frame: FakeFrame | null = sender.mainFrame) {
  return { sender, senderFrame: frame, frameId: frame?.routingId ?? 0, processId: 100 };
}

class FakeIpcRenderer extends EventEmitter {
  readonly invoke = vi.fn(async (_channel: string, ..._args: unknown[]): Promise<unknown> => null);
  readonly send = vi.fn();
}
export const ipcRenderer = new FakeIpcRenderer();

/** What the preload exposed, by key. */
export const exposed: Record<string, unknown> = {};
export const contextBridge = {
  exposeInMainWorld: vi.fn((key: string, api: unknown) => {
    exposed[key] = api;
  }),
};

export const shell = {
  openExternal: vi.fn(async (_url: string) => {}),
  showItemInFolder: vi.fn((_path: string) => {}),
  /** Resolves with an error message, or '' on success (Electron's contract). */
  openPath: vi.fn(async (_path: string) => ''),
  trashItem: vi.fn(async (_path: string) => {}),
};

export const protocol = {
  handlers: new Map<string, (request: Request) => Promise<Response> | Response>(),
  registerSchemesAsPrivileged: vi.fn(),
  handle: vi.fn((scheme: string, handler: (request: Request) => Promise<Response>) => {
    protocol.handlers.set(scheme, handler);
  }),
  unhandle: vi.fn((scheme: string) => {
    protocol.handlers.delete(scheme);
  }),
};

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
};

/** net.fetch for file: URLs only (real files, read from disk), as the protocol uses it. */
export const net = {
  fetch: vi.fn(async (input: string | URL) => {
    const url = new URL(String(input));
    if (url.protocol !== 'file:') throw new Error(`mock net.fetch serves file: URLs only: ${url}`);
    const path = fileURLToPath(url);
    const bytes = await readFile(path);
    const type = CONTENT_TYPES[extname(path)] ?? 'application/octet-stream';
    return new Response(bytes, { headers: { 'content-type': type } });
  }),
};

// Not encryption: enough that the plain text never appears on disk, and reversible.
const SEALED = Buffer.from('mock-sealed:');
export const safeStorage = {
  isAsyncEncryptionAvailable: vi.fn(async () => mockState.encryptionAvailable),
  getSelectedStorageBackend: vi.fn(() => mockState.storageBackend),
  encryptStringAsync: vi.fn(async (plain: string) =>
    Buffer.concat([SEALED, Buffer.from(plain, 'utf8').map((b) => b ^ 0x5a)]),
  ),
  decryptStringAsync: vi.fn(async (sealed: Buffer) => {
    if (!sealed.subarray(0, SEALED.length).equals(SEALED)) {
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.');
    }
    const plain = Buffer.from(sealed.subarray(SEALED.length).map((b) => b ^ 0x5a));
    return { result: plain.toString('utf8'), shouldReEncrypt: mockState.shouldReEncrypt };
  }),
  /** Deprecated in Electron 45: present so a test can prove they are never called. */
  encryptString: vi.fn(),
  decryptString: vi.fn(),
  isEncryptionAvailable: vi.fn(),
};

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

export const screen = {
  getAllDisplays: vi.fn(() => mockState.displays),
  getPrimaryDisplay: vi.fn(() => mockState.displays[0]!),
  /** As Electron: the display the rectangle overlaps most, else the primary one (never none). */
  getDisplayMatching: vi.fn((rect: Rect) => {
    let best = mockState.displays[0]!;
    for (const display of mockState.displays) {
      if (overlap(display.bounds, rect) > overlap(best.bounds, rect)) best = display;
    }
    return best;
  }),
};

export class Notification extends EventEmitter {
  static instances: Notification[] = [];
  static isSupported = vi.fn(() => mockState.notificationsSupported);
  readonly options: { title?: string; body?: string };
  readonly show = vi.fn();

  constructor(options: { title?: string; body?: string } = {}) {
    super();
    this.options = options;
    Notification.instances.push(this);
  }
}

export const dialog = {
  showErrorBox: vi.fn(),
  /** Answers as if the person closed the dialog; a test sets what they chose. */
  showSaveDialog: vi.fn(async (..._args: unknown[]) => ({ canceled: true, filePath: '' })),
};

export const Menu = {
  buildFromTemplate: vi.fn((template: unknown[]) => ({ template })),
  setApplicationMenu: vi.fn(),
};

/** Back to a fresh system: state, registrations, instances and call records. */
export function resetElectronMock(): void {
  Object.assign(mockState, initialState());
  BrowserWindow.instances = [];
  Notification.instances = [];
  ipcMain.handlers.clear();
  protocol.handlers.clear();
  for (const key of Object.keys(exposed)) delete exposed[key];
  for (const emitter of [app, ipcMain, ipcRenderer]) emitter.removeAllListeners();
  session.defaultSession.permissionRequestHandler = null;
  session.defaultSession.permissionCheckHandler = null;
  session.defaultSession.headersReceived = null;
  vi.clearAllMocks();
}

export default {
  app,
  BrowserWindow,
  contextBridge,
  dialog,
  ipcMain,
  ipcRenderer,
  Menu,
  net,
  Notification,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
};
