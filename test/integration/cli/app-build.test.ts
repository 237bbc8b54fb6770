import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DESKTOP_NEED,
  ensureAppBuilt,
  RENDERER_NEED,
} from '../../../main/cli/app-build/ensure-built.ts';

// A project of its own, whose `electron-vite` writes the three outputs and counts its builds
// (`fail` in the project makes it fail): what is proved is when a build runs, and what is said.
const FAKE_ELECTRON_VITE = `
const { appendFileSync, existsSync, mkdirSync, writeFileSync } = require('node:fs');
if (existsSync('fail')) { console.error('error: the renderer does not compile'); process.exit(1); }
const until = Date.now() + 300; while (Date.now() < until); // a build takes a while
for (const dir of ['out/main', 'out/preload', 'out/renderer']) mkdirSync(dir, { recursive: true });
writeFileSync('out/main/index.js', ''); writeFileSync('out/preload/index.cjs', '');
writeFileSync('out/renderer/index.html', '');
appendFileSync('builds.log', process.argv.slice(2).join(' ') + '\\n');
`;

let project: string;
let lines: string[];
const say = (line: string) => lines.push(line);
const builds = () => readFileSync(join(project, 'builds.log'), 'utf8').trim().split('\n');

/** Sets a file's modification time `seconds` from now. */
function touch(path: string, seconds: number): void {
  const when = new Date(Date.now() + seconds * 1000);
  utimesSync(join(project, path), when, when);
}

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'atelier-app-build-'));
  lines = [];
  const tool = join(project, 'node_modules', 'electron-vite');
  mkdirSync(join(tool, 'bin'), { recursive: true });
  writeFileSync(
    join(tool, 'package.json'),
    JSON.stringify({ name: 'electron-vite', bin: { 'electron-vite': 'bin/cli.cjs' } }),
  );
  writeFileSync(join(tool, 'bin', 'cli.cjs'), FAKE_ELECTRON_VITE);
  writeFileSync(join(project, 'package.json'), '{ "name": "p", "private": true }');
  writeFileSync(join(project, 'builds.log'), '');
  for (const dir of ['main/electron', 'shared', 'renderer/src']) {
    mkdirSync(join(project, dir), { recursive: true });
  }
  writeFileSync(join(project, 'main', 'electron', 'index.ts'), '');
  writeFileSync(join(project, 'shared', 'contract.ts'), '');
  writeFileSync(join(project, 'renderer', 'src', 'App.tsx'), '');
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

describe('ensureAppBuilt', () => {
  it('builds a fresh clone once, saying so, and not again while nothing changed', async () => {
    expect(await ensureAppBuilt({ need: RENDERER_NEED, say, root: project })).toBe(true);
    expect(lines[0]).toBe(
      'Building the app first: out/renderer/index.html is missing (npm run build)…',
    );
    expect(lines[1]).toMatch(/^Built in \d+\.\d s\.$/);
    expect(builds()).toEqual(['build']);
    lines = [];
    expect(await ensureAppBuilt({ need: DESKTOP_NEED, say, root: project })).toBe(false);
    expect(lines).toEqual([]);
    expect(builds()).toEqual(['build']);
  });

  it('builds again when a source is newer than the build, for the hosts that use it', async () => {
    await ensureAppBuilt({ need: DESKTOP_NEED, say, root: project });
    touch('main/electron/index.ts', 5);
    lines = [];
    // the browser host serves the renderer alone: a change to main/ is not its concern
    expect(await ensureAppBuilt({ need: RENDERER_NEED, say, root: project })).toBe(false);
    expect(await ensureAppBuilt({ need: DESKTOP_NEED, say, root: project })).toBe(true);
    expect(lines[0]).toBe(
      'Building the app first: main/electron/index.ts changed after out/main/index.js was built (npm run build)…',
    );
    touch('shared/contract.ts', 10);
    expect(await ensureAppBuilt({ need: RENDERER_NEED, say, root: project })).toBe(true);
    expect(builds()).toHaveLength(3);
  });

  it('builds once when two ask at the same moment', async () => {
    const both = await Promise.all([
      ensureAppBuilt({ need: RENDERER_NEED, say, root: project }),
      ensureAppBuilt({ need: RENDERER_NEED, say, root: project }),
    ]);
    expect(both.sort()).toEqual([false, true]);
    expect(builds()).toEqual(['build']);
  });

  it('takes over the lock of a build that died', async () => {
    mkdirSync(join(project, 'out'));
    writeFileSync(join(project, 'out', '.build-lock'), '999999999');
    expect(await ensureAppBuilt({ need: RENDERER_NEED, say, root: project })).toBe(true);
  });

  it('fails with what the build said, and leaves no lock behind', async () => {
    writeFileSync(join(project, 'fail'), '');
    await expect(ensureAppBuilt({ need: RENDERER_NEED, say, root: project })).rejects.toThrow(
      /could not be built \("npm run build" failed, exit code 1\):\nerror: the renderer does not compile/,
    );
    rmSync(join(project, 'fail'));
    expect(await ensureAppBuilt({ need: RENDERER_NEED, say, root: project })).toBe(true);
  });

  it('says how to get the build tool when it is not installed', async () => {
    rmSync(join(project, 'node_modules'), { recursive: true });
    await expect(ensureAppBuilt({ need: RENDERER_NEED, say, root: project })).rejects.toThrow(
      'electron-vite, which builds it, is not installed: run "npm ci"',
    );
  });
});
