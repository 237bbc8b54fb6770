import { join } from 'node:path';
import { app } from 'electron';
import type { HostActions, ServedApp } from '../core/app/host.ts';
import type { KeyProvider } from '../core/app/key.ts';
import type { SettingsStore } from '../core/app/settings-store.ts';
import type { Logger } from '../core/logger.ts';

/** The service as the desktop runs it: served over IPC, and its engine started at launch. */
export interface DesktopService extends ServedApp {
  startQueue(): Promise<void>;
}

export interface DemoGateway {
  url: string;
  key: string;
  close(): Promise<void>;
}

/** Opens the application service (main/core/app); injected, so the shell never builds one. */
export type OpenService = (o: {
  dataDir: string;
  defaultLibraryDir: string;
  settings: SettingsStore;
  keys: KeyProvider;
  host: HostActions;
  logger: Logger;
  startDemoGateway: () => Promise<DemoGateway>;
}) => Promise<DesktopService>;

export interface DesktopPaths {
  /** The database and models.json: `<userData>/data`. */
  dataDir: string;
  /** Where images go until Settings says otherwise: `<Pictures>/Atelier`. */
  defaultLibraryDir: string;
}

/** The platform's usual places (AppData, Application Support, ~/.config; Pictures). */
export function desktopPaths(): DesktopPaths {
  return {
    dataDir: join(app.getPath('userData'), 'data'),
    defaultLibraryDir: join(picturesDir(), 'Atelier'),
  };
}

function picturesDir(): string {
  try {
    return app.getPath('pictures');
  } catch {
    return join(app.getPath('home'), 'Pictures'); // a Linux desktop without XDG folders
  }
}

/** The built-in simulator on loopback: the demo's gateway, loaded only when the demo runs. */
export async function startDemoGateway(): Promise<DemoGateway> {
  const { startGateway } = await import('../simulator/index.ts');
  const gateway = await startGateway({ host: '127.0.0.1', latency: DEMO_LATENCY });
  return { url: gateway.url, key: gateway.key, close: () => gateway.close() };
}

/** As the CLI's demo: a realistic pace, so the queue is seen at work. */
const DEMO_LATENCY = { fixedMs: 150, jitterMs: 250 };

export interface AppServiceOptions {
  openService: OpenService;
  settings: SettingsStore;
  keys: KeyProvider;
  host: HostActions;
  logger: Logger;
}

/** The one application service of this process, with the desktop's places and demo gateway. */
export async function setupAppService(options: AppServiceOptions): Promise<DesktopService> {
  const { openService, ...rest } = options;
  return openService({ ...desktopPaths(), ...rest, startDemoGateway });
}
