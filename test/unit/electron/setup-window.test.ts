import type { BrowserWindow as ElectronWindow } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { app, BrowserWindow, mockState, resetElectronMock } from '../../support/electron-mock.ts';
import { DEFAULT_SIZE, setupWindow } from '../../../main/electron/setup-window.ts';
import { setupSingleInstance } from '../../../main/electron/setup-single-instance.ts';
import {
  isVisibleOn,
  restorableBounds,
  type WindowState,
  type WindowStateStore,
} from '../../../main/electron/window-state.ts';

vi.mock('electron', () => import('../../support/electron-mock.ts'));

function memoryStore(saved: WindowState | null = null) {
  const store = {
    saved,
    load: () => store.saved,
    save: vi.fn((s: WindowState) => (store.saved = s)),
  };
  return store satisfies WindowStateStore;
}

function open(store = memoryStore()) {
  setupWindow({
    url: 'atelier://app/index.html',
    preload: '/app/out/preload/index.cjs',
    stateStore: store,
  });
  return BrowserWindow.instances.at(-1)!;
}

describe('setupWindow', () => {
  beforeEach(() => resetElectronMock());

  it('opens one window sandboxed, isolated, without Node, with the preload', () => {
    const win = open();
    expect(BrowserWindow.instances).toHaveLength(1);
    expect(win.options['webPreferences']).toStrictEqual({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      preload: '/app/out/preload/index.cjs',
    });
    expect(win.loadURL).toHaveBeenCalledWith('atelier://app/index.html');
  });

  it('stays hidden until its first paint', () => {
    const win = open();
    expect(win.options['show']).toBe(false);
    expect(win.show).not.toHaveBeenCalled();
    win.emit('ready-to-show');
    expect(win.show).toHaveBeenCalledTimes(1);
  });

  it('opens at the default size the first time', () => {
    const win = open();
    expect(win.options).toMatchObject(DEFAULT_SIZE);
    expect(win.options['x']).toBeUndefined();
  });

  it('reopens where it was left, maximized again, when that place is on a display', () => {
    const bounds = { x: 200, y: 150, width: 1000, height: 700 };
    const win = open(memoryStore({ bounds, maximized: true }));
    expect(win.options).toMatchObject(bounds);
    expect(win.maximize).toHaveBeenCalled();
  });

  it('ignores a place on a display that is gone', () => {
    const bounds = { x: 2500, y: 100, width: 1000, height: 700 }; // a second monitor, unplugged
    const win = open(memoryStore({ bounds, maximized: true }));
    expect(win.options).toMatchObject(DEFAULT_SIZE);
    expect(win.options['x']).toBeUndefined();
    expect(win.maximize).not.toHaveBeenCalled();
  });

  it('uses a second display while it is there', () => {
    mockState.displays.push({
      id: 2,
      bounds: { x: 1920, y: 0, width: 1920, height: 1080 },
      workArea: { x: 1920, y: 0, width: 1920, height: 1080 },
    });
    const bounds = { x: 2500, y: 100, width: 1000, height: 700 };
    expect(open(memoryStore({ bounds, maximized: false })).options).toMatchObject(bounds);
  });

  it('saves its normal bounds (rounded) and maximized state on close', () => {
    const store = memoryStore();
    const win = open(store);
    win.bounds = { x: 10.4, y: 20.6, width: 900, height: 600 };
    win.maximized = true;
    win.emit('close');
    expect(store.save).toHaveBeenCalledWith({
      bounds: { x: 10, y: 21, width: 900, height: 600 },
      maximized: true,
    });
  });
});

describe('window placement', () => {
  const area = { x: 0, y: 40, width: 1920, height: 1040 };

  it.each([
    [{ x: 0, y: 40, width: 800, height: 600 }, true],
    [{ x: -700, y: 100, width: 800, height: 600 }, true], // 100 px still show
    [{ x: -750, y: 100, width: 800, height: 600 }, false], // 50 px: too little to grab
    [{ x: 100, y: 1060, width: 800, height: 600 }, false], // below the work area
    [{ x: 5000, y: 100, width: 800, height: 600 }, false],
  ])('%o visible: %s', (bounds, visible) => {
    expect(isVisibleOn(bounds, area)).toBe(visible);
  });

  it('restores nothing when nothing was saved', () => {
    expect(restorableBounds(null, () => ({ workArea: area }))).toBeNull();
  });
});

describe('setupSingleInstance', () => {
  beforeEach(() => resetElectronMock());

  it('tells a second process to quit', () => {
    mockState.singleInstanceLock = false;
    expect(setupSingleInstance(() => null)).toBe(false);
    expect(app.listenerCount('second-instance')).toBe(0);
  });

  it('brings the window back when a second launch hands over', () => {
    const win = open();
    win.minimized = true;
    expect(setupSingleInstance(() => win as unknown as ElectronWindow)).toBe(true);
    app.emit('second-instance', {}, ['atelier'], '/');
    expect(win.restore).toHaveBeenCalled();
    expect(win.show).toHaveBeenCalled();
    expect(win.focus).toHaveBeenCalled();
  });

  it('does nothing before the window exists', () => {
    expect(setupSingleInstance(() => null)).toBe(true);
    expect(() => app.emit('second-instance', {}, [], '/')).not.toThrow();
  });
});
