import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { app } from './app.ts';
import type { Menu } from './system.ts';
import { invokeMain, ipcMain, sendToMain } from './ipc.ts';
import { appPackage, preventable, resetState, state, type Configuration } from './state.ts';
import { fetchThroughProtocol, session, Session } from './web.ts';
import { BrowserWindow } from './windows.ts';

/** The stand-in's own controls and records: not part of Electron's API. */
export const standIn = {
  /** Where the app's folders go, and whose package.json it is. Before anything else. */
  configure(options: Configuration): void {
    state.config = options;
    const home = join(options.root, 'home');
    const appData = join(options.root, 'appData');
    const userData = join(appData, appPackage().name);
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

  /** The file the next save dialogs answer with, as a person choosing it would (null: cancel). */
  answerSaveDialogs(filePath: string | null): void {
    state.saveDialogAnswer = filePath;
  },

  /** Electron finished launching: `ready`, and `whenReady()` resolves. */
  async launch(): Promise<void> {
    if (state.ready) return;
    // Chromium keeps its profile in userData: it exists once the app is ready
    mkdirSync(state.paths['userData']!, { recursive: true });
    state.ready = true;
    app.emit('ready', preventable(), {});
    state.readyGate.open();
  },

  /** Resolves with the exit code once the app quit (app.quit() went through, or app.exit()). */
  quitted: (): Promise<number> => state.quitGate.promise,

  /** The handler `protocol.handle` registered for the URL's scheme answers the request. */
  fetch: (input: Request | string): Promise<Response> =>
    fetchThroughProtocol(typeof input === 'string' ? new Request(input) : input),

  /** The privileges `registerSchemesAsPrivileged` gave a scheme, or null. */
  privilegesOf(scheme: string): Record<string, boolean> | null {
    return state.privilegedSchemes.find((s) => s.scheme === scheme)?.privileges ?? null;
  },

  /** What a renderer's ipcRenderer does: invoke, send; and the channels handled. */
  ipc: {
    invoke: invokeMain,
    send: sendToMain,
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
    return state.applicationMenu as Menu | null;
  },
  get progressBars() {
    return state.progressBars;
  },

  /** Back to a process that never launched (for the stand-in's own tests). */
  reset(): void {
    for (const window of BrowserWindow.getAllWindows()) window.destroy();
    resetState();
    for (const emitter of [app, ipcMain]) emitter.removeAllListeners();
    session.defaultSession = new Session();
  },
};
