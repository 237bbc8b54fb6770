import { join } from 'node:path';
import { app, BrowserWindow, shell } from 'electron';

// The desktop shell stays thin: everything that does work lives in main/core.
function createWindow(): void {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Atelier',
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  });
  // Navigation away from the app and new windows are refused; https links open outside.
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.webContents.on('will-navigate', (event) => event.preventDefault());

  const devUrl = process.env['ELECTRON_RENDERER_URL'];
  if (devUrl) void window.loadURL(devUrl);
  else void window.loadFile(join(import.meta.dirname, '../renderer/index.html'));
}

void app.whenReady().then(createWindow);
app.on('window-all-closed', () => app.quit());
