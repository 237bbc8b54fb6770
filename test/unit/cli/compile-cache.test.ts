import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileCacheFolder, isPrivateFolder } from '../../../bin/compile-cache.js';

describe('compileCacheFolder', () => {
  it("is the user's cache folder, never the shared temp folder", () => {
    expect(compileCacheFolder({ XDG_CACHE_HOME: '/x/cache' }, 'linux', '/home/ada')).toBe(
      join('/x/cache', 'atelier', 'node-compile-cache'),
    );
    expect(compileCacheFolder({}, 'linux', '/home/ada')).toBe(
      join('/home/ada', '.cache', 'atelier', 'node-compile-cache'),
    );
    expect(compileCacheFolder({ XDG_CACHE_HOME: '/x' }, 'darwin', '/Users/ada')).toBe(
      join('/Users/ada', 'Library', 'Caches', 'atelier', 'node-compile-cache'),
    );
    expect(
      compileCacheFolder({ LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' }, 'win32', ''),
    ).toBe(join('C:\\Users\\ada\\AppData\\Local', 'atelier', 'node-compile-cache'));
  });

  it('is none where the user has no home nor cache folder', () => {
    expect(compileCacheFolder({}, 'linux', '')).toBeNull();
    expect(compileCacheFolder({}, 'win32', 'C:\\Users\\ada')).toBeNull();
  });
});

describe.skipIf(process.platform === 'win32')('isPrivateFolder', () => {
  let dir = '';
  const dirs: string[] = [];
  afterEach(() => {
    for (const made of dirs.splice(0)) rmSync(made, { recursive: true, force: true });
  });
  const make = (mode: number) => {
    dir = mkdtempSync(join(tmpdir(), 'atelier-cache-'));
    dirs.push(dir);
    const folder = join(dir, 'cache');
    mkdirSync(folder);
    chmodSync(folder, mode);
    return folder;
  };

  it("takes the user's own folder that nobody else may write to", () => {
    expect(isPrivateFolder(make(0o700))).toBe(true);
    expect(isPrivateFolder(make(0o755))).toBe(true);
  });

  it('refuses a folder others may write to: they could put compiled code of theirs there', () => {
    expect(isPrivateFolder(make(0o777))).toBe(false);
    expect(isPrivateFolder(make(0o770))).toBe(false);
  });

  it('refuses a link, a file and a missing folder', () => {
    const folder = make(0o700);
    const link = join(dir, 'link');
    symlinkSync(folder, link);
    const file = join(dir, 'file');
    writeFileSync(file, '');
    expect(isPrivateFolder(link)).toBe(false);
    expect(isPrivateFolder(file)).toBe(false);
    expect(isPrivateFolder(join(dir, 'missing'))).toBe(false);
  });
});
