import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SettingsValue } from '../../../main/core/app/settings-store.ts';
import { SettingsFile } from '../../../main/core/settings/settings-file.ts';
import { pollUntil } from '../../support/poll-until.ts';

const NOW = new Date('2025-03-04T05:06:07.089Z');
let dir: string;
let opened: SettingsFile[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-settings-file-'));
});
afterEach(() => {
  for (const file of opened) file.close();
  opened = [];
  rmSync(dir, { recursive: true, force: true });
});

const open = (options: Partial<ConstructorParameters<typeof SettingsFile>[0]> = {}) => {
  const file = new SettingsFile({ dataDir: dir, now: () => NOW, watchIntervalMs: 0, ...options });
  opened.push(file);
  return file;
};
const onDisk = () => JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'));
/** Writes a file as an older version would have, modified `secondsAgo`. */
function old(name: string, json: unknown, secondsAgo: number) {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(json));
  const at = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(path, at, at);
  return path;
}

describe('the data folder’s settings file', () => {
  it('starts from the defaults (or the host’s seed) and writes nothing until asked', () => {
    expect(open().read()).toMatchObject({ gateway: { kind: 'demo' }, manifest: true });
    expect(open({ seed: { manifest: false } }).read().manifest).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
    const file = open();
    expect(file.saved).toBe(false);
    file.write({ ...file.read(), concurrency: 32 });
    expect(file.saved).toBe(true);
    expect(onDisk()).toMatchObject({ version: 2, concurrency: 32 });
    expect(statSync(join(dir, 'settings.json')).mode & 0o777).toBe(0o600);
    expect(open().read().concurrency).toBe(32);
  });

  it('refuses settings the schema rejects, leaving the file as it was', () => {
    const file = open();
    file.write({ ...file.read(), concurrency: 4 });
    const before = readFileSync(join(dir, 'settings.json'), 'utf8');
    expect(() => file.write({ ...file.read(), concurrency: 0 })).toThrow();
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).toBe(before);
  });

  it('merges the older files once, the newer file winning, and leaves them as .migrated', () => {
    // the browser host's file of before (no version), the older one
    old(
      'settings.json',
      {
        theme: 'dark',
        concurrency: 4,
        profiles: [
          { name: 'Work', baseUrl: 'https://work.example', extraHeaders: { 'X-Team': 'art-9' } },
        ],
        gateway: { kind: 'remote', profile: 'Work' },
      },
      60,
    );
    // the CLI's, newer: its gateway and concurrency win; the app's profile and theme stay
    old(
      'cli-settings.json',
      {
        gateway: {
          kind: 'remote',
          baseUrl: 'https://user:pw@cli.example',
          extraHeaders: { 'X-Portkey-Api-Key': 'pk-live-1234' },
        },
        library: '/srv/library',
        concurrency: 16,
        requestsPerMinute: null,
        template: null,
        sidecar: true,
        manifest: false,
        thumbnails: false,
      },
      10,
    );
    const file = open();
    const settings = file.read();
    expect(settings).toMatchObject({
      theme: 'dark',
      concurrency: 16,
      library: '/srv/library',
      sidecar: true,
      manifest: false,
      gateway: { kind: 'remote', profile: 'Command line' },
    });
    expect(settings.profiles.map((p) => [p.name, p.baseUrl, p.headers.map((h) => h.name)])).toEqual(
      [
        ['Work', 'https://work.example', ['X-Team']],
        ['Command line', 'https://cli.example', ['X-Portkey-Api-Key']],
      ],
    );
    expect(file.migrated).toEqual({
      from: [join(dir, 'settings.json'), join(dir, 'cli-settings.json')],
      headers: ['Work: X-Team', 'Command line: X-Portkey-Api-Key'],
    });
    // the values, kept apart for the host's secret store, under the ids the file names
    const values = file.takeMigratedHeaderValues();
    const ids = settings.profiles.flatMap((p) => p.headers.map((h) => h.id));
    expect(ids.map((id) => values.get(id))).toEqual(['art-9', 'pk-live-1234']);
    expect(file.takeMigratedHeaderValues().size).toBe(0);

    expect(readdirSync(dir).sort()).toEqual([
      'cli-settings.json.migrated',
      'settings.json',
      'settings.json.migrated',
    ]);
    const text = readFileSync(join(dir, 'settings.json'), 'utf8');
    for (const secret of ['art-9', 'pk-live-1234', 'user:pw']) expect(text).not.toContain(secret);
    expect(onDisk().version).toBe(2);
    // read once: the next open has nothing to migrate
    expect(open().migrated).toBeNull();
    expect(open().read()).toEqual(settings);
  });

  it('lets the newer file win the other way round too', () => {
    old('settings.json', { concurrency: 4, theme: 'light' }, 5);
    old(
      'cli-settings.json',
      {
        gateway: { kind: 'demo' },
        library: '/srv/library',
        concurrency: 16,
        requestsPerMinute: 60,
        template: null,
        sidecar: false,
        manifest: false,
        thumbnails: false,
      },
      50,
    );
    expect(open().read()).toMatchObject({
      concurrency: 4,
      theme: 'light',
      requestsPerMinute: 60,
      library: '/srv/library',
    });
  });

  it('merges a file outside the data folder the host names (the desktop’s electron-store)', () => {
    const outside = mkdtempSync(join(tmpdir(), 'atelier-user-data-'));
    try {
      const path = join(outside, 'settings.json');
      writeFileSync(
        path,
        JSON.stringify({ theme: 'dark', prices: { 'flux-schnell': { perImage: 3 } } }),
      );
      const file = open({ legacyFiles: [{ path, kind: 'app' }] });
      expect(file.read()).toMatchObject({
        theme: 'dark',
        prices: { 'flux-schnell': { perImage: 3 } },
      });
      expect(existsSync(`${path}.migrated`)).toBe(true);
      expect(existsSync(path)).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('sets a damaged file aside with a clear reason, never wiping it', () => {
    writeFileSync(join(dir, 'settings.json'), '{"version": 2, "concurrency": 12,');
    const file = open();
    const backup = join(dir, 'settings.corrupt-2025-03-04T05-06-07.089Z.json');
    expect(file.recovered).toEqual({
      backupPath: backup,
      reason: expect.stringMatching(/^The settings file could not be read: it is not valid JSON/),
    });
    expect(file.read().concurrency).toBe(8);
    expect(readFileSync(backup, 'utf8')).toBe('{"version": 2, "concurrency": 12,');

    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ version: 2, concurrency: 0 }));
    expect(open({ now: () => new Date(NOW.getTime() + 1) }).recovered?.reason).toMatch(
      /concurrency: Too small/,
    );
  });

  it('sets a damaged older file aside and still merges the others', () => {
    old('cli-settings.json', { gateway: { kind: 'remote' } }, 5);
    old('settings.json', { theme: 'dark' }, 10);
    const file = open();
    expect(file.read().theme).toBe('dark');
    expect(file.recovered?.reason).toMatch(/gateway/);
    expect(readdirSync(dir).sort()).toEqual([
      'cli-settings.corrupt-2025-03-04T05-06-07.089Z.json',
      'settings.json',
      'settings.json.migrated',
    ]);
  });

  it('refuses a file a newer Atelier wrote, leaving it alone', () => {
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ version: 3, theme: 'dark' }));
    expect(() => open()).toThrow(/written by a newer Atelier/);
    expect(readdirSync(dir)).toEqual(['settings.json']);
  });

  it('read-only, migrates nothing and writes nothing, yet reads what the older files say', () => {
    old(
      'cli-settings.json',
      {
        gateway: { kind: 'demo' },
        library: '/srv/library',
        concurrency: 3,
        requestsPerMinute: null,
        template: null,
        sidecar: false,
        manifest: false,
        thumbnails: false,
      },
      5,
    );
    const file = open({ readOnly: true });
    expect(file.read()).toMatchObject({ concurrency: 3, library: '/srv/library' });
    expect(readdirSync(dir)).toEqual(['cli-settings.json']);
    expect(() => file.write(file.read())).toThrow(/read-only/);
  });

  it('hears another process’s change, and not its own writes', async () => {
    const mine = open({ watchIntervalMs: 20 });
    const theirs = open({ watchIntervalMs: 20 });
    const heard: Array<[SettingsValue, SettingsValue]> = [];
    mine.subscribe((next, previous) => heard.push([next, previous]));

    theirs.write({ ...theirs.read(), concurrency: 21, theme: 'dark' });
    await pollUntil(() => heard.length === 1, 'the other process’s change');
    expect(heard[0]![0]).toMatchObject({ concurrency: 21, theme: 'dark' });
    expect(heard[0]![1]).toMatchObject({ concurrency: 8, theme: 'system' });
    expect(mine.read().concurrency).toBe(21);

    mine.write({ ...mine.read(), concurrency: 22 });
    // (several polls pass: an own write would have been heard by now)
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toHaveLength(1);

    // a hand edit that breaks the file changes nothing here
    writeFileSync(join(dir, 'settings.json'), '{"version": 2,');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toHaveLength(1);
    expect(mine.read().concurrency).toBe(22);
  });
});
