import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  app,
  BrowserWindow,
  ipcEventFrom,
  ipcMain,
  net,
  protocol,
  safeStorage,
  screen,
  shell,
  standIn,
} from '../../desktop/electron-stand-in/index.ts';

// The stand-in `electron` that npm run check:desktop boots the built app with: these are the
// behaviours of Electron the check relies on, so a stand-in that lost one would prove nothing.
const ROOT = resolve(import.meta.dirname, '../../..');
const temp = mkdtempSync(join(tmpdir(), 'atelier-stand-in-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

beforeEach(() => {
  standIn.reset();
  standIn.configure({ root: mkdtempSync(join(temp, 'root-')), appPath: ROOT });
});

/** An invoke as a renderer would send it, from the main frame of `window`. */
function invokeFrom(window: BrowserWindow, channel: string, ...args: unknown[]) {
  const contents = window.webContents;
  return standIn.ipc.invoke(channel, ipcEventFrom(contents, contents.mainFrame), args);
}

class Point {
  x = 1;
  norm(): number {
    return this.x;
  }
}

describe('ipcMain', () => {
  it('refuses a second handler for a channel, as Electron does', () => {
    ipcMain.handle('atelier:app.info', () => 1);
    expect(() => ipcMain.handle('atelier:app.info', () => 2)).toThrow(
      "Attempted to register a second handler for 'atelier:app.info'",
    );
    ipcMain.removeHandler('atelier:app.info');
    expect(() => ipcMain.handle('atelier:app.info', () => 3)).not.toThrow();
  });

  it('hands the handler a structured clone of the arguments, and the caller one of the result', async () => {
    await standIn.launch();
    const window = new BrowserWindow();
    const kept: unknown[] = [];
    const answer = { nested: { n: 1 } };
    ipcMain.handle('c', (_event, input) => {
      kept.push(input);
      return answer;
    });
    const sent = { when: new Date(5), point: new Point(), list: [1, 2] };
    const result = (await invokeFrom(window, 'c', sent)) as typeof answer;
    const received = kept[0] as typeof sent;
    expect(received).not.toBe(sent);
    expect(received.when).toBeInstanceOf(Date);
    expect(received.when.getTime()).toBe(5);
    expect(received.point).toEqual({ x: 1 }); // a class's methods never cross
    expect(received.point).not.toBeInstanceOf(Point);
    expect(result).toEqual(answer);
    expect(result).not.toBe(answer);
    answer.nested.n = 2;
    expect(result.nested.n).toBe(1);
  });

  it('words failures as Electron does: uncloneable input or result, a throwing handler, none', async () => {
    await standIn.launch();
    const window = new BrowserWindow();
    const handler = vi.fn(() => ({ callback: () => 1 }));
    ipcMain.handle('fn', handler);
    await expect(invokeFrom(window, 'fn', { f: () => 1 })).rejects.toThrow(
      'An object could not be cloned.',
    );
    expect(handler).not.toHaveBeenCalled();
    await expect(invokeFrom(window, 'fn', {})).rejects.toThrow(
      "Error invoking remote method 'fn': Error: An object could not be cloned.",
    );
    ipcMain.handle('boom', () => {
      throw new Error('boom');
    });
    await expect(invokeFrom(window, 'boom')).rejects.toThrow(
      "Error invoking remote method 'boom': Error: boom",
    );
    await expect(invokeFrom(window, 'nobody')).rejects.toThrow(
      "No handler registered for 'nobody'",
    );
  });

  it('passes the sender and its frame, which the IPC sender check reads', async () => {
    await standIn.launch();
    const window = new BrowserWindow();
    const events: Array<{ sender: unknown; senderFrame: { parent: unknown } | null }> = [];
    ipcMain.handle('who', (event) => void events.push(event as (typeof events)[number]));
    await invokeFrom(window, 'who');
    const child = window.webContents.mainFrame.addChild('atelier://app/frame.html');
    await standIn.ipc.invoke('who', ipcEventFrom(window.webContents, child), []);
    expect(events[0]!.sender).toBe(window.webContents);
    expect(events[0]!.senderFrame).toBe(window.webContents.mainFrame);
    expect(BrowserWindow.fromWebContents(events[0]!.sender)).toBe(window);
    expect(events[1]!.senderFrame!.parent).toBe(window.webContents.mainFrame);
  });

  it('delivers ipcRenderer.send on a later turn, cloned at once', async () => {
    await standIn.launch();
    const window = new BrowserWindow();
    const got: unknown[] = [];
    ipcMain.on('ping', (_event, value) => got.push(value));
    const value = { n: 1 };
    const event = ipcEventFrom(window.webContents, window.webContents.mainFrame);
    standIn.ipc.send('ping', event, [value]);
    value.n = 2;
    expect(got).toEqual([]);
    await new Promise((done) => setImmediate(done));
    expect(got).toEqual([{ n: 1 }]);
    expect(() => standIn.ipc.send('ping', event, [() => 1])).toThrow('could not be cloned');
  });
});

describe('app and windows', () => {
  it('is ready only once launched: windows, screen and protocol.handle wait for it', async () => {
    let ready = false;
    void app.whenReady().then(() => (ready = true));
    expect(() => new BrowserWindow()).toThrow('cannot be used before the app is ready');
    expect(() => screen.getPrimaryDisplay()).toThrow('before the app is ready');
    expect(() => protocol.handle('atelier', () => new Response())).toThrow('before the app');
    expect(safeStorage.isEncryptionAvailable()).toBe(false);
    protocol.registerSchemesAsPrivileged([{ scheme: 'atelier', privileges: { secure: true } }]);
    await Promise.resolve();
    expect(ready).toBe(false);
    await standIn.launch();
    await Promise.resolve();
    expect(ready).toBe(true);
    expect(app.isReady()).toBe(true);
    expect(() =>
      protocol.registerSchemesAsPrivileged([{ scheme: 'late', privileges: {} }]),
    ).toThrow('before app is ready');
    expect(standIn.privilegesOf('atelier')).toEqual({ secure: true });
  });

  it('answers paths inside its root (userData made at launch), and refuses unknown names', async () => {
    const userData = app.getPath('userData');
    expect(userData).toMatch(/appData[\\/]atelier$/);
    expect(existsSync(userData)).toBe(false);
    await standIn.launch();
    expect(existsSync(userData)).toBe(true);
    expect(app.getPath('pictures')).toMatch(/home[\\/]Pictures$/);
    expect(() => app.getPath('nowhere')).toThrow("Failed to get 'nowhere' path");
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
    expect(app.getVersion()).toBe(version);
  });

  it('keeps what a window was created with, and its web preferences over the defaults', async () => {
    await standIn.launch();
    const created = vi.fn();
    app.on('web-contents-created', created);
    const window = new BrowserWindow({
      width: 1000,
      webPreferences: { preload: '/p/index.cjs', sandbox: true },
    });
    expect(window.options).toEqual({
      width: 1000,
      webPreferences: { preload: '/p/index.cjs', sandbox: true },
    });
    expect(window.webContents.getLastWebPreferences()).toMatchObject({
      preload: '/p/index.cjs',
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
    });
    expect(created).toHaveBeenCalledWith(expect.anything(), window.webContents);
  });

  it('loads a page through its protocol handler, and fails on an error status', async () => {
    await standIn.launch();
    protocol.handle('atelier', (request) =>
      request.url.endsWith('/index.html')
        ? new Response('<title>x</title>', { headers: { 'content-type': 'text/html' } })
        : new Response('no', { status: 404 }),
    );
    const window = new BrowserWindow();
    const shown = vi.fn();
    window.on('ready-to-show', shown);
    await window.loadURL('atelier://app/index.html');
    expect(window.webContents.getURL()).toBe('atelier://app/index.html');
    expect(shown).toHaveBeenCalled();
    await expect(window.loadURL('atelier://app/missing.html')).rejects.toThrow(
      'ERR_HTTP_RESPONSE_CODE_FAILURE',
    );
    expect(() => protocol.handle('atelier', () => new Response())).toThrow(
      'Failed to register protocol: atelier',
    );
  });

  it('sends to the page cloned, on a later turn; a function cannot be sent', async () => {
    await standIn.launch();
    const window = new BrowserWindow();
    const received: unknown[][] = [];
    window.webContents.mainFrame.renderer = {
      receive: (channel, args) => received.push([channel, ...args]),
    };
    const batch = { events: [{ type: 'progress' }] };
    window.webContents.send('atelier:events', batch);
    batch.events = [];
    expect(received).toEqual([]);
    await new Promise((done) => setImmediate(done));
    expect(received).toEqual([['atelier:events', { events: [{ type: 'progress' }] }]]);
    expect(() => window.webContents.send('x', () => 1)).toThrow('could not be cloned');
    window.destroy();
    expect(() => window.webContents.send('x')).toThrow('Object has been destroyed');
  });

  it('quits as Electron: before-quit may hold it, then windows close, will-quit, quit', async () => {
    await standIn.launch();
    new BrowserWindow();
    const order: string[] = [];
    let hold = true;
    app.on('before-quit', (event: { preventDefault(): void }) => {
      order.push('before-quit');
      if (hold) event.preventDefault();
    });
    app.on('window-all-closed', () => order.push('window-all-closed'));
    app.on('will-quit', () => order.push('will-quit'));
    app.quit();
    expect(BrowserWindow.getAllWindows()).toHaveLength(1);
    hold = false;
    app.quit();
    expect(await standIn.quitted()).toBe(0);
    expect(order).toEqual(['before-quit', 'before-quit', 'will-quit']);
    expect(BrowserWindow.getAllWindows()).toHaveLength(0);
  });
});

describe('net, safeStorage, shell', () => {
  it('fetches a file: URL whole, ignoring Range, as Electron’s file loader does', async () => {
    const file = join(temp, 'clip.mp4');
    writeFileSync(file, '0123456789');
    const response = await net.fetch(pathToFileURL(file).href, { headers: { range: 'bytes=5-' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(await response.text()).toBe('0123456789');
  });

  it('seals reversibly without the plain text, once ready', async () => {
    await expect(safeStorage.encryptStringAsync('sk-secret')).rejects.toThrow('not available');
    await standIn.launch();
    expect(await safeStorage.isAsyncEncryptionAvailable()).toBe(true);
    const sealed = await safeStorage.encryptStringAsync('sk-secret');
    expect(sealed.includes('sk-secret')).toBe(false);
    expect((await safeStorage.decryptStringAsync(sealed)).result).toBe('sk-secret');
    await expect(safeStorage.decryptStringAsync(Buffer.from('sk-secret'))).rejects.toThrow(
      'Error while decrypting',
    );
  });

  it('moves a trashed file into the root’s Trash, and fails for a missing one', async () => {
    const file = join(app.getPath('home'), 'x.png');
    await standIn.launch();
    mkdirSync(app.getPath('home'), { recursive: true });
    writeFileSync(file, 'X');
    await shell.trashItem(file);
    expect(existsSync(file)).toBe(false);
    const trash = join(app.getPath('home'), '..', 'Trash');
    expect(readdirSync(trash).map((name) => readFileSync(join(trash, name), 'utf8'))).toEqual([
      'X',
    ]);
    await expect(shell.trashItem(file)).rejects.toThrow('Failed to move item to trash');
  });
});
