import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bundleFolder,
  freshCliBundle,
  MANIFEST_VERSION,
  type BundleManifest,
} from '../../../bin/cli-bundle.js';

let root = '';
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'atelier-cli-bundle-'));
  mkdirSync(join(root, 'main'));
  writeFileSync(join(root, 'main/a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'main/b.ts'), 'export const b = 2;\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A manifest of the two sources as they are now, as the build writes it. */
function writeManifest(change: Partial<BundleManifest> = {}): void {
  const sources = ['main/a.ts', 'main/b.ts'].map((path) => {
    const stats = statSync(join(root, path));
    return { path, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, size: stats.size };
  });
  mkdirSync(bundleFolder(root), { recursive: true });
  const manifest: BundleManifest = {
    version: MANIFEST_VERSION,
    entries: { index: 'build-1/index.cjs', internalError: 'build-1/internal-error.cjs' },
    sources,
    ...change,
  };
  writeFileSync(join(bundleFolder(root), 'manifest.json'), JSON.stringify(manifest));
}

describe('freshCliBundle', () => {
  it('names the bundle while every source is as it was built from', () => {
    writeManifest();
    expect(freshCliBundle(root, {})).toEqual({
      index: join(root, 'out/cli/build-1/index.cjs'),
      internalError: join(root, 'out/cli/build-1/internal-error.cjs'),
    });
  });

  it('is none without a bundle, or with a manifest it cannot read', () => {
    expect(freshCliBundle(root, {})).toBeNull();
    mkdirSync(bundleFolder(root), { recursive: true });
    writeFileSync(join(bundleFolder(root), 'manifest.json'), '{"version": 1, "sour');
    expect(freshCliBundle(root, {})).toBeNull();
  });

  it('is none when a source was edited since, even to the same size', () => {
    writeManifest();
    writeFileSync(join(root, 'main/b.ts'), 'export const b = 3;\n');
    // (a later edit: within the filesystem clock's tick of the build, no stat can tell)
    utimesSync(join(root, 'main/b.ts'), new Date(), new Date(Date.now() + 2000));
    expect(freshCliBundle(root, {})).toBeNull();
  });

  it('is none when a source grew, was touched or is gone', () => {
    writeManifest();
    appendFileSync(join(root, 'main/a.ts'), '// more\n');
    expect(freshCliBundle(root, {})).toBeNull();

    writeManifest();
    utimesSync(join(root, 'main/a.ts'), new Date(), new Date(Date.now() + 5000));
    expect(freshCliBundle(root, {})).toBeNull();

    writeManifest();
    rmSync(join(root, 'main/a.ts'));
    expect(freshCliBundle(root, {})).toBeNull();
  });

  it("is none for another version's manifest, or one listing no source", () => {
    writeManifest({ version: MANIFEST_VERSION + 1 });
    expect(freshCliBundle(root, {})).toBeNull();
    writeManifest({ sources: [] });
    expect(freshCliBundle(root, {})).toBeNull();
  });

  it('is none when ATELIER_CLI_SOURCES=1 asks for the sources', () => {
    writeManifest();
    expect(freshCliBundle(root, { ATELIER_CLI_SOURCES: '1' })).toBeNull();
    expect(freshCliBundle(root, { ATELIER_CLI_SOURCES: '0' })).not.toBeNull();
  });
});
