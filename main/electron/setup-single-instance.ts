import { app, type BrowserWindow } from 'electron';

/**
 * One Atelier per person: a second launch hands over to the first (which comes to the front)
 * and quits, since two processes would fight over the same queue and settings.
 * False when this process is the second one and must quit.
 */
export function setupSingleInstance(currentWindow: () => BrowserWindow | null): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', () => {
    const win = currentWindow();
    if (!win || win.isDestroyed()) return;
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  });
  return true;
}
