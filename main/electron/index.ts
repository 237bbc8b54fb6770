import { join } from 'node:path';
import { app, dialog, type BrowserWindow } from 'electron';
import { openAppService } from '../core/app/app-service.ts';
import { consoleLogger } from '../core/logger.ts';
import { desktopHostActions } from './host-actions.ts';
import { setupAppService, type OpenService } from './setup-app-service.ts';
import { setupIpc } from './setup-ipc.ts';
import { setupHeaderStorage } from './setup-header-storage.ts';
import { setupKeyStorage } from './setup-key-storage.ts';
import { setupLifecycle } from './setup-lifecycle.ts';
import { setupMenu } from './setup-menu.ts';
import { setupNotifications } from './setup-notifications.ts';
import { registerSchemes, setupProtocol } from './setup-protocol.ts';
import { setupSecurity } from './setup-security.ts';
import { setupSettings } from './setup-settings.ts';
import { setupShellState } from './setup-shell-state.ts';
import { setupSingleInstance } from './setup-single-instance.ts';
import { setupTaskbar } from './setup-taskbar.ts';
import { setupWindow } from './setup-window.ts';
import { APP_INDEX_URL, rendererDevUrl } from './trusted-url.ts';

// The desktop shell, in the order it starts. Everything that does work lives in main/core;
// each setupX() is one concern of the shell (main/electron/setup-*.ts).
const logger = consoleLogger;
const devUrl = rendererDevUrl(app.isPackaged, process.env);
const built = import.meta.dirname; // out/main: the preload and renderer are beside it
let mainWindow: BrowserWindow | null = null;

/** The application service, opened once the app is ready, with the desktop's abilities. */
const openService: OpenService = ({ host, ...o }) =>
  openAppService({ ...o, host: 'desktop', version: app.getVersion(), actions: host });

async function start(): Promise<void> {
  setupSecurity({ devUrl, logger });
  const shell = setupShellState();
  const dataDir = shell.dataDir();
  const settings = setupSettings(dataDir, logger);
  const keys = setupKeyStorage(logger);
  const headerSecrets = setupHeaderStorage(logger);
  const host = desktopHostActions(() => mainWindow);
  const service = await setupAppService({
    openService,
    dataDir,
    settings,
    keys,
    headerSecrets,
    host,
    logger,
  });
  shell.rememberDataDir(dataDir);
  setupLifecycle(service, logger);
  setupProtocol({
    rendererDir: join(built, '../renderer'),
    libraryDir: () => service.libraryDir(),
    logger,
  });
  setupIpc({
    app: service,
    window: () => mainWindow,
    devUrl,
    logger,
    checkOutput: !app.isPackaged,
  });
  const win = setupWindow({
    url: devUrl ?? APP_INDEX_URL,
    preload: join(built, '../preload/index.cjs'),
    stateStore: shell.window,
    background: shell.background(),
    logger,
  });
  mainWindow = win;
  win.on('closed', () => (mainWindow = null));
  setupMenu({ logger });
  setupNotifications({ events: service.events, settings, onClick: () => win.show() });
  setupTaskbar(service.events, win);
  // the next start paints its window in the theme the data folder's settings say now
  shell.rememberTheme(settings.read().theme);
  service.events.subscribe(null, (batch) => {
    if (batch.events.some((e) => e.type === 'settings.changed')) {
      shell.rememberTheme(settings.read().theme);
    }
  });
  // another Atelier running this data folder's queue is no reason to stop: the UI still shows it
  await service
    .startQueue()
    .catch((error: unknown) => logger.error('the queue did not start', error));
}

function fatal(error: unknown): void {
  logger.error('Atelier could not start', error);
  const detail = error instanceof Error ? error.message : String(error);
  dialog.showErrorBox('Atelier could not start', detail);
  app.quit();
}

registerSchemes();
if (setupSingleInstance(() => mainWindow)) void app.whenReady().then(start).catch(fatal);
else app.quit();
