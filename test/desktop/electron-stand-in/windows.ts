import { EventEmitter } from 'node:events';
import { app } from './app.ts';
import {
  cloneForIpc,
  newId,
  preventable,
  requireReady,
  state,
  type RendererPort,
} from './state.ts';
import { fetchThroughProtocol, session, type Session } from './web.ts';

/** A frame of a page (WebFrameMain): what IPC's sender check reads. */
export class WebFrameMain {
  readonly routingId = newId();
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
  readonly id = newId();
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
      const response = await fetchThroughProtocol(new Request(url));
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

  readonly id = newId();
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
    state.windows.add(this);
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
    state.windows.delete(this);
    this.webContents.destroy();
    this.emit('closed');
    if (BrowserWindow.all.size === 0 && !state.quitting) app.emit('window-all-closed');
  }
}
