import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockState, resetElectronMock } from '../../support/electron-mock.ts';
import { setupSettings } from '../../../main/electron/setup-settings.ts';
import { setupShellState } from '../../../main/electron/setup-shell-state.ts';

vi.mock('electron', () => import('../../support/electron-mock.ts'));

let userData: string;
let dataDir: string;
beforeEach(() => {
  resetElectronMock();
  userData = mkdtempSync(join(tmpdir(), 'atelier-desktop-'));
  dataDir = join(userData, 'data');
  mkdirSync(dataDir);
  mockState.paths = { userData };
});
afterEach(() => rmSync(userData, { recursive: true, force: true }));

describe('setupSettings: the data folder’s settings, through the core', () => {
  it('keeps them in <data>/settings.json, the file the CLI and `atelier ui` use', () => {
    const settings = setupSettings(dataDir);
    settings.write({ ...settings.read(), concurrency: 5, theme: 'dark' });
    const file = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'));
    expect(file).toMatchObject({ version: 2, concurrency: 5, theme: 'dark' });
    expect(existsSync(join(userData, 'settings.json'))).toBe(false);
    expect(setupSettings(dataDir).read()).toMatchObject({ concurrency: 5, theme: 'dark' });
  });

  it('merges electron-store’s settings of older versions once, header values kept apart', () => {
    const old = {
      theme: 'dark',
      concurrency: 12,
      profiles: [
        {
          name: 'Portkey',
          baseUrl: 'https://api.portkey.example',
          extraHeaders: { 'X-Portkey-Api-Key': 'pk-upstream-secret-9f8e' },
        },
      ],
      gateway: { kind: 'remote', profile: 'Portkey' },
    };
    writeFileSync(join(userData, 'settings.json'), JSON.stringify(old));
    const settings = setupSettings(dataDir);
    expect(settings.read()).toMatchObject({
      theme: 'dark',
      concurrency: 12,
      gateway: { kind: 'remote', profile: 'Portkey' },
      profiles: [{ name: 'Portkey', headers: [{ name: 'X-Portkey-Api-Key' }] }],
    });
    expect(settings.migrated?.from).toEqual([join(userData, 'settings.json')]);
    expect([...settings.takeMigratedHeaderValues().values()]).toEqual(['pk-upstream-secret-9f8e']);
    expect(readFileSync(join(dataDir, 'settings.json'), 'utf8')).not.toContain('pk-upstream');
    expect(existsSync(join(userData, 'settings.json'))).toBe(false);
    expect(existsSync(join(userData, 'settings.json.migrated'))).toBe(true);
    // read once: the next start finds only the data folder's file
    expect(setupSettings(dataDir).migrated).toBeNull();
  });

  it('merges them at the first start, when the data folder does not exist yet', () => {
    rmSync(dataDir, { recursive: true });
    writeFileSync(join(userData, 'settings.json'), JSON.stringify({ theme: 'light' }));
    expect(setupSettings(dataDir).read().theme).toBe('light');
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')).theme).toBe('light');
  });

  it('sets a damaged file aside and starts from the defaults, saying so', () => {
    writeFileSync(join(dataDir, 'settings.json'), '{"version": 2, "concurrency": 12,');
    const settings = setupSettings(dataDir);
    expect(settings.recovered?.backupPath).toMatch(/settings\.corrupt-.+\.json$/);
    expect(settings.recovered?.reason).toMatch(/could not be read: it is not valid JSON/);
    expect(settings.read().concurrency).toBe(8);
  });
});

describe('setupShellState: what only the desktop shell keeps (electron-store)', () => {
  it('keeps the window’s place, the data folder and the theme in <userData>/shell.json', () => {
    const shell = setupShellState();
    expect(shell.window.load()).toBeNull();
    expect(shell.dataDir()).toBe(join(userData, 'data'));
    expect(shell.background()).toBeUndefined();
    const state = { bounds: { x: 1, y: 2, width: 300, height: 400 }, maximized: true };
    shell.window.save(state);
    shell.rememberDataDir('/srv/atelier-data');
    shell.rememberTheme('dark');

    const again = setupShellState();
    expect(again.window.load()).toEqual(state);
    expect(again.dataDir()).toBe('/srv/atelier-data');
    expect(again.background()).toBe('#131418');
    const file = JSON.parse(readFileSync(join(userData, 'shell.json'), 'utf8'));
    expect(Object.keys(file).sort()).toEqual(['dataDir', 'theme', 'window']);
  });

  it('starts again from the defaults when its file is damaged: losing it costs nothing', () => {
    writeFileSync(join(userData, 'shell.json'), '{"window": {"bounds": 1}, "theme": "neon"');
    const shell = setupShellState();
    expect(shell.window.load()).toBeNull();
    expect(shell.background()).toBeUndefined();
    writeFileSync(join(userData, 'shell.json'), '{"window": {"bounds": 1}, "theme": "neon"}');
    expect(setupShellState().window.load()).toBeNull();
  });
});
