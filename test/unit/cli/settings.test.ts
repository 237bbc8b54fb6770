import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, UsageError } from '../../../main/cli/command.ts';
import {
  loadSettings,
  saveSettings,
  settingsPath,
  type SavedSettings,
} from '../../../main/cli/run/saved-settings.ts';
import { resolveSettings } from '../../../main/cli/run/settings.ts';

const saved: SavedSettings = {
  gateway: { kind: 'remote', baseUrl: 'https://gw.example', extraHeaders: { 'X-Route': 'eu' } },
  library: '/data/lib',
  concurrency: 16,
  requestsPerMinute: 120,
  template: '{batch}/{index}.{ext}',
  sidecar: true,
  manifest: false,
  thumbnails: false,
};

describe('resolveSettings', () => {
  it('uses defaults for a fresh data folder: ./atelier-library, concurrency 8', () => {
    expect(resolveSettings({ demo: true }, null, '/home/ada/work')).toEqual({
      gateway: { kind: 'demo' },
      library: '/home/ada/work/atelier-library',
      concurrency: 8,
      requestsPerMinute: null,
      template: null,
      sidecar: false,
      manifest: false,
      thumbnails: false,
    });
  });

  it('carries on with what the data folder saved when no flag says otherwise (resume)', () => {
    expect(resolveSettings({}, saved, '/anywhere')).toEqual(saved);
  });

  it('lets flags replace the saved gateway, headers and concurrency', () => {
    const settings = resolveSettings(
      { headers: { 'X-Route': 'us' }, concurrency: 2 },
      saved,
      '/anywhere',
    );
    expect(settings.gateway).toEqual({
      kind: 'remote',
      baseUrl: 'https://gw.example',
      extraHeaders: { 'X-Route': 'us' },
    });
    expect(settings.concurrency).toBe(2);
    expect(resolveSettings({ demo: true }, saved, '/anywhere').gateway).toEqual({ kind: 'demo' });
  });

  it('needs --gateway or --demo when the data folder has no saved gateway', () => {
    expect(() => resolveSettings({}, null, '/w')).toThrow(UsageError);
    expect(() => resolveSettings({}, null, '/w')).toThrow(/--gateway URL .* or --demo/);
  });

  it('refuses --demo with --gateway, and --header with the demo', () => {
    expect(() => resolveSettings({ demo: true, gateway: 'http://x' }, null, '/w')).toThrow(
      /not both/,
    );
    expect(() => resolveSettings({ demo: true, headers: { A: 'b' } }, null, '/w')).toThrow(
      /--header is for a real gateway/,
    );
  });

  it('keeps one library per data folder', () => {
    expect(resolveSettings({ out: '/data/lib' }, saved, '/w').library).toBe('/data/lib');
    expect(resolveSettings({ demo: true, out: 'lib' }, null, '/data').library).toBe('/data/lib');
    expect(() => resolveSettings({ out: '/elsewhere' }, saved, '/w')).toThrow(ConfigError);
  });

  it('refuses a bad file name template as a usage error', () => {
    expect(() => resolveSettings({ demo: true, template: 'x.png' }, null, '/w')).toThrow(
      /--template: .*must end with "\.\{ext\}"/,
    );
  });
});

describe('credentials in the gateway address', () => {
  const withKey = 'https://user:sk-live-4f8a2c9e7b1d@gw.example:8443/v1';

  it('are dropped from --gateway: the key comes from ATELIER_API_KEY only', () => {
    expect(resolveSettings({ gateway: withKey }, null, '/w').gateway).toEqual({
      kind: 'remote',
      baseUrl: 'https://gw.example:8443/v1',
      extraHeaders: {},
    });
  });

  it('are never written to cli-settings.json, and dropped from one an older version wrote', () => {
    const dir = mkdtempSync(join(tmpdir(), 'atelier-settings-'));
    try {
      const remote = { ...saved, gateway: { ...saved.gateway, baseUrl: withKey } } as SavedSettings;
      saveSettings(dir, remote);
      expect(readFileSync(settingsPath(dir), 'utf8')).not.toContain('sk-live');
      writeFileSync(settingsPath(dir), JSON.stringify(remote));
      expect(loadSettings(dir)?.gateway).toMatchObject({ baseUrl: 'https://gw.example:8443/v1' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
