import { readdirSync } from 'node:fs';
import { join, matchesGlob, relative, resolve } from 'node:path';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import { beforeAll, describe, expect, it } from 'vitest';

// electron-builder.yml as electron-builder itself reads and validates it (nothing is packed:
// packing would download Electron).
const ROOT = resolve(import.meta.dirname, '../../..');
type Config = Awaited<ReturnType<typeof getConfig>>;
let config: Config;

beforeAll(async () => {
  config = await getConfig(ROOT, null, null);
});

/** Native binaries and the libraries they load, under the given node_modules folders. */
function nativeFiles(...packages: string[]): string[] {
  return packages.flatMap((name) =>
    readdirSync(join(ROOT, 'node_modules', name), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.(node|dylib|dll|so(\.\d+)*)$/.test(entry.name))
      .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).replaceAll('\\', '/')),
  );
}

describe('electron-builder.yml', () => {
  it('is a configuration electron-builder accepts', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('rebuilds nothing: better-sqlite3 and sharp are Node-API, one binary for Node and Electron', () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.nodeGypRebuild ?? false).toBe(false);
    expect(config.buildDependenciesFromSource ?? false).toBe(false);
  });

  it('keeps every native binary and libvips out of the asar archive', () => {
    const unpacked = [config.asarUnpack ?? []].flat();
    const files = nativeFiles('better-sqlite3', 'sharp', '@img');
    expect(files.some((f) => f.endsWith('.node'))).toBe(true);
    expect(files.some((f) => /libvips/.test(f))).toBe(true);
    const packed = files.filter((file) => !unpacked.some((glob) => matchesGlob(file, glob)));
    expect(packed).toEqual([]);
  });

  it('packs the build (out/) the app starts from', () => {
    const files = JSON.stringify(config.files);
    expect(files).toContain('out/**');
  });
});
