import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Conf from 'conf';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockState, resetElectronMock } from '../../support/electron-mock.ts';
import { Settings } from '../../../shared/api/schemas/settings.ts';
import {
  backupPathFor,
  FileSettingsStore,
  openSettingsFile,
} from '../../../main/electron/settings-file.ts';
import { setupSettings } from '../../../main/electron/setup-settings.ts';

vi.mock('electron', () => import('../../support/electron-mock.ts'));

const NOW = new Date('2025-03-04T05:06:07.089Z');
const BACKUP = 'settings.corrupt-2025-03-04T05-06-07.089Z.json';
const DEFAULTS = Settings.parse({});

let dir: string;
let path: string;
beforeEach(() => {
  resetElectronMock();
  dir = mkdtempSync(join(tmpdir(), 'atelier-settings-'));
  path = join(dir, 'settings.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The settings file through conf, as electron-store (which extends it) opens it. */
function open(schema?: ConstructorParameters<typeof Conf>[0] extends infer O ? O : never) {
  return new FileSettingsStore(
    openSettingsFile({
      path,
      now: () => NOW,
      open: () =>
        new Conf<Record<string, unknown>>({
          cwd: dir,
          configName: 'settings',
          clearInvalidConfig: false,
          ...(schema ?? {}),
        }),
    }),
  );
}

describe('settings file', () => {
  it('starts with the contract’s defaults and nothing recovered', () => {
    const store = open();
    expect(store.read()).toEqual(DEFAULTS);
    expect(store.recovered).toBeNull();
  });

  it('keeps what is written, checked, across opens', () => {
    const store = open();
    store.write({ ...store.read(), concurrency: 32, theme: 'dark' });
    expect(open().read()).toMatchObject({ concurrency: 32, theme: 'dark' });
  });

  it('refuses to write settings the schema rejects, leaving the file as it was', () => {
    const store = open();
    store.write({ ...store.read(), concurrency: 4 });
    const before = readFileSync(path, 'utf8');
    expect(() => store.write({ ...store.read(), concurrency: 0 })).toThrow();
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(store.read().concurrency).toBe(4);
  });

  it('hands out copies: changing what read() gave changes nothing', () => {
    const store = open();
    store.read().notifications.batchFinished = false;
    expect(store.read().notifications.batchFinished).toBe(true);
  });

  it('backs up a file that is not JSON and reopens with the defaults', () => {
    writeFileSync(path, '{"concurrency": 12,');
    const store = open();
    expect(store.read()).toEqual(DEFAULTS);
    expect(store.recovered).toEqual({
      backupPath: join(dir, BACKUP),
      reason: 'The settings file could not be read: it is not valid JSON.',
    });
    expect(readFileSync(join(dir, BACKUP), 'utf8')).toBe('{"concurrency": 12,');
  });

  it('backs up JSON that is not the contract’s Settings, saying what is wrong', () => {
    writeFileSync(path, JSON.stringify({ concurrency: 'many', theme: 'neon' }));
    const store = open();
    expect(store.read()).toEqual(DEFAULTS);
    expect(store.recovered?.reason).toMatch(/not valid \(concurrency: .*; theme: /);
    expect(JSON.parse(readFileSync(join(dir, BACKUP), 'utf8'))).toEqual({
      concurrency: 'many',
      theme: 'neon',
    });
  });

  it('backs up a file that fails conf’s own JSON schema', () => {
    writeFileSync(path, JSON.stringify({ concurrency: 'many' }));
    const store = open({ schema: { concurrency: { type: 'number' } } });
    expect(store.recovered).toMatchObject({
      backupPath: join(dir, BACKUP),
      reason: 'The settings file could not be read: a schema check failed.',
    });
    expect(existsSync(join(dir, BACKUP))).toBe(true);
  });

  it('never wipes: after recovery the folder has the backup and a fresh file', () => {
    writeFileSync(path, 'garbage');
    const store = open();
    store.write({ ...store.read(), concurrency: 3 });
    expect(readdirSync(dir).sort()).toEqual([BACKUP, 'settings.json']);
    expect(readFileSync(join(dir, BACKUP), 'utf8')).toBe('garbage');
  });

  it('lets other errors through: they say nothing about the file', () => {
    expect(() =>
      openSettingsFile({
        path,
        open: () => {
          throw new Error('EACCES: permission denied');
        },
      }),
    ).toThrow(/EACCES/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('names backups with a file-name-safe ISO time', () => {
    expect(backupPathFor('/data/settings.json', NOW)).toBe(join('/data', BACKUP));
  });
});

describe('setupSettings (electron-store)', () => {
  it('keeps settings.json in the user-data folder and recovers a damaged one', () => {
    mockState.paths['userData'] = dir;
    writeFileSync(path, 'not json');
    const store = setupSettings();
    expect(store.recovered?.backupPath).toMatch(/settings\.corrupt-.+\.json$/);
    expect(store.read()).toEqual(DEFAULTS);
    store.write({ ...store.read(), concurrency: 5 });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ concurrency: 5 });
    expect(setupSettings().recovered).toBeNull();
  });
});
