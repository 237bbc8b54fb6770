import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What every part of the stand-in shares: one process's Electron. */

export interface Configuration {
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

export function preventable(): PreventableEvent {
  return {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}

function gate<T>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

function initialState() {
  return {
    config: null as Configuration | null,
    ready: false,
    /** Opens when the app is ready (`whenReady`), and when it quit (with the exit code). */
    readyGate: gate<void>(),
    quitGate: gate<number>(),
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
    /** The file a save dialog answers with (null: the person cancels). */
    saveDialogAnswer: null as string | null,
    /** The menu `Menu.setApplicationMenu` was given (system.ts's `Menu`). */
    applicationMenu: null as unknown,
    /** Every window not destroyed yet (windows.ts), so that quitting closes them. */
    windows: new Set<{ destroy(): void }>(),
    progressBars: [] as Array<{ window: number; progress: number; mode: string | undefined }>,
    paths: {} as Record<string, string>,
  };
}

export const state = initialState();

/** Back to a process that never launched. */
export function resetState(): void {
  Object.assign(state, initialState());
}

let lastId = 0;
/** Ids for windows, web contents and frames, unique in the process as Electron's are. */
export function newId(): number {
  return ++lastId;
}

export function config(): Configuration {
  if (!state.config) throw new Error('The stand-in is not configured: call standIn.configure().');
  return state.config;
}

export function requireReady(api: string): void {
  if (!state.ready) throw new Error(`${api} cannot be used before the app is ready`);
}

/** IPC arguments and results: the structured clone algorithm, as Electron words its failure. */
export function cloneForIpc<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch (error) {
    throw new Error('An object could not be cloned.', { cause: error });
  }
}

/** The app's package.json: its name (or productName) and version, as Electron reads them. */
export function appPackage(): { name: string; version: string } {
  const json = JSON.parse(readFileSync(join(config().appPath, 'package.json'), 'utf8')) as {
    name: string;
    productName?: string;
    version: string;
  };
  return { name: json.productName ?? json.name, version: json.version };
}
