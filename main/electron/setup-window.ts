import { BrowserWindow, screen } from 'electron';
import type { Logger } from '../core/logger.ts';
import { restorableBounds, type WindowStateStore } from './window-state.ts';

export const DEFAULT_SIZE = { width: 1280, height: 820 };
export const MIN_SIZE = { minWidth: 720, minHeight: 480 };

export interface WindowOptions {
  /** The renderer's first page: `atelier://app/index.html`, or the dev server. */
  url: string;
  /** The built preload (out/preload/index.cjs). */
  preload: string;
  stateStore: WindowStateStore;
  /** The window's colour before the page paints (the last theme chosen); the system's if unset. */
  background?: string;
  logger?: Logger;
}

/**
 * The one window. The renderer gets no Node and runs sandboxed in an isolated world; it
 * reaches the app only through the preload's API. Hidden until its first paint, at the
 * place it was left if that place is still on a screen.
 */
export function setupWindow(options: WindowOptions): BrowserWindow {
  const saved = options.stateStore.load();
  const bounds = restorableBounds(saved, (b) => screen.getDisplayMatching(b));
  const win = new BrowserWindow({
    ...(bounds ?? DEFAULT_SIZE),
    ...MIN_SIZE,
    title: 'Atelier',
    show: false,
    ...(options.background ? { backgroundColor: options.background } : {}),
    webPreferences: {
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      preload: options.preload,
    },
  });
  if (bounds && saved?.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  win.on('close', () => {
    try {
      const { x, y, width, height } = win.getNormalBounds();
      const bounds = { x, y, width, height };
      for (const key of Object.keys(bounds) as Array<keyof typeof bounds>) {
        bounds[key] = Math.round(bounds[key]); // DIPs can be fractional on scaled displays
      }
      options.stateStore.save({ bounds, maximized: win.isMaximized() });
    } catch (error) {
      options.logger?.warn('could not remember the window size and place', error);
    }
  });
  win.loadURL(options.url).catch((error: unknown) => {
    options.logger?.error(`the window could not load ${options.url}`, error);
  });
  return win;
}
