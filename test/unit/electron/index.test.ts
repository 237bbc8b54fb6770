import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contractMethods } from '../../../shared/api/channels.ts';
import type * as ElectronMockModule from '../../support/electron-mock.ts';

vi.mock('electron', () => import('../../support/electron-mock.ts'));
type ElectronMock = typeof ElectronMockModule;

const service = {
  api: {},
  events: { subscribe: vi.fn(() => () => {}) },
  libraryDir: () => '/library',
  toApiError: () => ({ code: 'internal' as const, message: 'x' }),
  close: vi.fn(async () => {}),
  startQueue: vi.fn(async () => {}),
};
const setupAppService = vi.fn(async () => service);
vi.mock('../../../main/electron/setup-app-service.ts', () => ({ setupAppService }));

let userData: string;
beforeEach(() => {
  vi.resetModules(); // index.ts runs as it loads: a fresh copy (and a fresh electron) per test
  vi.clearAllMocks();
  userData = mkdtempSync(join(tmpdir(), 'atelier-index-'));
});
afterEach(() => rmSync(userData, { recursive: true, force: true }));

/** Loads the entry against a fresh fake Electron set up by `prepare`. */
async function boot(prepare: (mock: ElectronMock) => void) {
  // the mocked module itself: resetModules keeps mocks, so this is the copy index.ts gets
  const mock = (await import('electron')) as unknown as ElectronMock;
  mock.resetElectronMock();
  mock.mockState.paths = { userData, pictures: join(userData, 'Pictures') };
  prepare(mock);
  await import('../../../main/electron/index.ts');
  return mock;
}

describe('main/electron/index.ts', () => {
  it('quits at once when another Atelier holds the lock', async () => {
    const mock = await boot((m) => (m.mockState.singleInstanceLock = false));
    expect(mock.protocol.registerSchemesAsPrivileged).toHaveBeenCalled();
    expect(mock.app.quit).toHaveBeenCalled();
    expect(mock.app.whenReady).not.toHaveBeenCalled();
  });

  it('registers the scheme before ready, then sets up the shell and starts the queue', async () => {
    const mock = await boot(() => {});
    await vi.waitFor(() => expect(service.startQueue).toHaveBeenCalled());
    const registered = mock.protocol.registerSchemesAsPrivileged.mock.invocationCallOrder[0]!;
    expect(registered).toBeLessThan(mock.app.whenReady.mock.invocationCallOrder[0]!);
    expect(setupAppService).toHaveBeenCalledTimes(1);
    expect(mock.protocol.handlers.has('atelier')).toBe(true);
    expect(mock.ipcMain.handlers.size).toBe(contractMethods().length);
    expect(mock.BrowserWindow.instances).toHaveLength(1);
    expect(mock.BrowserWindow.instances[0]!.loadURL).toHaveBeenCalledWith(
      'atelier://app/index.html',
    );
    expect(mock.Menu.setApplicationMenu).toHaveBeenCalled();
    // notifications, taskbar, the theme the next start's window is painted in
    expect(service.events.subscribe).toHaveBeenCalledTimes(3);
    expect(mock.app.quit).not.toHaveBeenCalled();
  });

  it('says why and quits when the service cannot open', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    setupAppService.mockRejectedValueOnce(
      new Error('The database was written by a newer Atelier.'),
    );
    const mock = await boot(() => {});
    await vi.waitFor(() => expect(mock.app.quit).toHaveBeenCalled());
    expect(mock.dialog.showErrorBox).toHaveBeenCalledWith(
      'Atelier could not start',
      'The database was written by a newer Atelier.',
    );
    expect(consoleError).toHaveBeenCalledWith(
      'atelier: Atelier could not start',
      expect.any(Error),
    );
    consoleError.mockRestore();
  });
});
