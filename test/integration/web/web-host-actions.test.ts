import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-trash-'));
  // the freedesktop trash of a home of our own (read when the package loads)
  vi.stubEnv('HOME', path.join(dir, 'home'));
  vi.stubEnv('XDG_DATA_HOME', path.join(dir, 'home', '.local', 'share'));
  mkdirSync(path.join(dir, 'home'));
});
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux')('the browser host trash', () => {
  it('moves library files to the freedesktop trash, names taken literally', async () => {
    const { webHostActions } = await import('../../../main/web/web-host-actions.ts');
    const library = path.join(dir, 'library');
    mkdirSync(path.join(library, '.thumbs'), { recursive: true });
    const files = [
      path.join(library, '.thumbs', 'a [1].png.webp'),
      path.join(library, 'a [1].json'),
      path.join(library, 'a [1].png'),
    ];
    for (const file of files) writeFileSync(file, 'x');
    writeFileSync(path.join(library, 'a 1.png'), 'a glob would have matched me');

    await webHostActions().trash!(files);
    expect(files.filter((file) => existsSync(file))).toEqual([]);
    expect(existsSync(path.join(library, 'a 1.png'))).toBe(true);
    const trash = path.join(dir, 'home', '.local', 'share', 'Trash');
    expect(readdirSync(path.join(trash, 'files'))).toHaveLength(3);
    // what the file manager reads to put them back where they were
    const origins = readdirSync(path.join(trash, 'info')).map((name) => {
      const info = readFileSync(path.join(trash, 'info', name), 'utf8');
      return decodeURIComponent(/^Path=(.*)$/m.exec(info)![1]!);
    });
    expect(origins.sort()).toEqual([...files].sort());
  });
});
