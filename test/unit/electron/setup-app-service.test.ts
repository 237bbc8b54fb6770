import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockState, resetElectronMock } from '../../support/electron-mock.ts';
import { MemoryKeyProvider } from '../../../main/core/app/key.ts';
import type { SettingsStore } from '../../../main/core/app/settings-store.ts';
import { silentLogger } from '../../../main/core/logger.ts';
import { MemoryHeaderSecrets } from '../../../main/core/settings/header-secrets.ts';
import {
  desktopPaths,
  setupAppService,
  type DesktopService,
  type OpenService,
} from '../../../main/electron/setup-app-service.ts';
import { startDemoGateway } from '../../../main/simulator/demo-gateway.ts';

vi.mock('electron', () => import('../../support/electron-mock.ts'));

describe('setupAppService', () => {
  beforeEach(() => {
    resetElectronMock();
    mockState.paths = {
      userData: '/home/p/.config/Atelier',
      pictures: '/home/p/Pictures',
      home: '/home/p',
    };
  });

  it('keeps data in user data and the library in Pictures', () => {
    expect(desktopPaths()).toEqual({
      dataDir: join('/home/p/.config/Atelier', 'data'),
      defaultLibraryDir: join('/home/p/Pictures', 'Atelier'),
    });
    expect(desktopPaths('/elsewhere/data').dataDir).toBe('/elsewhere/data');
  });

  it('falls back to ~/Pictures where the system names no pictures folder', () => {
    delete mockState.paths['pictures'];
    expect(desktopPaths().defaultLibraryDir).toBe(join('/home/p', 'Pictures', 'Atelier'));
  });

  it('opens the injected service with the desktop’s places, key, settings and actions', async () => {
    const service = { startQueue: vi.fn() } as unknown as DesktopService;
    const openService = vi.fn<OpenService>(async () => service);
    const keys = new MemoryKeyProvider({});
    const headerSecrets = new MemoryHeaderSecrets();
    const settings = { read: vi.fn(), write: vi.fn() } as unknown as SettingsStore;
    const host = { reveal: vi.fn() };
    const dataDir = '/home/p/.config/Atelier/data';
    const opened = await setupAppService({
      openService,
      dataDir,
      settings,
      keys,
      headerSecrets,
      host,
      logger: silentLogger,
    });
    expect(opened).toBe(service);
    expect(openService).toHaveBeenCalledWith({
      ...desktopPaths(dataDir),
      settings,
      keys,
      headerSecrets,
      host,
      logger: silentLogger,
      // the one demo gateway every host starts
      startDemoGateway,
    });
  });

  it('starts the demo gateway on loopback and closes it', async () => {
    const gateway = await startDemoGateway();
    try {
      expect(new URL(gateway.url).hostname).toBe('127.0.0.1');
      expect(gateway.key).toMatch(/^sk-/);
      const models = await fetch(`${gateway.url}/v1/models`, {
        headers: { authorization: `Bearer ${gateway.key}` },
      });
      expect(models.status).toBe(200);
      await models.arrayBuffer();
    } finally {
      await gateway.close();
    }
  });
});
