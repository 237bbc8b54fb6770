/**
 * The `electron` module as the built main process (out/main/index.js) sees it, under plain
 * Node: `npm run check:desktop` maps the specifier `electron` to this file (index.ts) at resolution
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
 *   status; `webContents.send` clones and delivers to the page's preload (../sandboxed-preload.ts).
 * - `protocol.handle` keeps its handler; `net.fetch` of a `file:` URL answers the whole file and
 *   ignores `Range`, as Electron's does.
 * - `safeStorage` seals reversibly (not encryption: the plain text never reaches the disk);
 *   `app.getPath` answers folders inside the temporary root given to `standIn.configure`;
 *   `shell.trashItem` moves the file into `<root>/Trash`.
 *
 * Everything the shell asked of the system (notifications, menus, dialogs, progress bars, shell
 * calls) is kept in `standIn` for the check to read (controls.ts). One module per part of
 * Electron: app.ts, windows.ts (windows, web contents, frames), ipc.ts, web.ts (protocol,
 * session, net), system.ts (keyring, shell, dialogs, menus, notifications, screen); state.ts is
 * what they share.
 */
import { app } from './app.ts';
import { ipcMain } from './ipc.ts';
import { dialog, Menu, Notification, safeStorage, screen, shell } from './system.ts';
import { net, protocol, session } from './web.ts';
import { BrowserWindow } from './windows.ts';

export { app } from './app.ts';
export { standIn } from './controls.ts';
export { ipcMain } from './ipc.ts';
export { cloneForIpc, preventable, type PreventableEvent, type RendererPort } from './state.ts';
export { dialog, Menu, Notification, safeStorage, screen, shell } from './system.ts';
export { net, protocol, Session, session } from './web.ts';
export {
  BrowserWindow,
  ipcEventFrom,
  WebContents,
  WebFrameMain,
  type IpcMainEvent,
  type IpcMainInvokeEvent,
} from './windows.ts';

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
