import { join } from 'node:path';
import { app } from 'electron';
import type { HostActions, ServedApp } from '../core/app/host.ts';
import type { KeyProvider } from '../core/app/key.ts';
import type { SettingsStore } from '../core/app/settings-store.ts';
import type { Logger } from '../core/logger.ts';
import type { HeaderSecrets } from '../core/settings/header-secrets.ts';
import { startDemoGateway, type DemoGateway } from '../simulator/demo-gateway.ts';

/** The service as the desktop runs it: served over IPC, and its engine started at launch. */
export interface DesktopService extends ServedApp {
  startQueue(): Promise<void>;
}

/** Opens the application service (main/core/app); injected, so the shell never builds one. */
export type OpenService = (o: {
  dataDir: string;
  defaultLibraryDir: string;
  settings: SettingsStore;
  keys: KeyProvider;
  headerSecrets: HeaderSecrets;
  host: HostActions;
  logger: Logger;
  startDemoGateway: () => Promise<DemoGateway>;
}) => Promise<DesktopService>;

export interface DesktopPaths {
  /** The database, settings.json and models.json: `<userData>/data` unless another was opened. */
  dataDir: string;
  /** Where images go until Settings says otherwise: `<Pictures>/Atelier`. */
  defaultLibraryDir: string;
}

/** The platform's usual places (AppData, Application Support, ~/.config; Pictures). */
export function desktopPaths(dataDir = join(app.getPath('userData'), 'data')): DesktopPaths {
  return { dataDir, defaultLibraryDir: join(picturesDir(), 'Atelier') };
}

function picturesDir(): string {
  try {
    return app.getPath('pictures');
  } catch {
    return join(app.getPath('home'), 'Pictures'); // a Linux desktop without XDG folders
  }
}

export interface AppServiceOptions {
  openService: OpenService;
  /** The data folder (the shell's last one). */
  dataDir: string;
  settings: SettingsStore;
  keys: KeyProvider;
  headerSecrets: HeaderSecrets;
  host: HostActions;
  logger: Logger;
}

/**
 * The one application service of this process, with the desktop's places and the demo
 * gateway every host starts (main/simulator/demo-gateway.ts).
 */
export async function setupAppService(options: AppServiceOptions): Promise<DesktopService> {
  const { openService, dataDir, ...rest } = options;
  return openService({ ...desktopPaths(dataDir), ...rest, startDemoGateway });
}
