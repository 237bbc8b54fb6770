import { describe, expect, it } from 'vitest';
import { newestOf, whyBuild } from '../../../main/cli/app-build/staleness.ts';

const outputs = (main: number | null, renderer: number | null) => [
  { path: 'out/main/index.js', mtimeMs: main },
  { path: 'out/renderer/index.html', mtimeMs: renderer },
];

describe('whyBuild', () => {
  it('builds when an output is missing (a fresh clone)', () => {
    expect(whyBuild(outputs(100, null), { path: 'renderer/src/App.tsx', mtimeMs: 50 })).toBe(
      'out/renderer/index.html is missing',
    );
    expect(whyBuild(outputs(null, null), null)).toBe('out/main/index.js is missing');
  });

  it('builds when a source changed after the oldest output was written', () => {
    expect(whyBuild(outputs(100, 200), { path: 'shared/api/contract.ts', mtimeMs: 150 })).toBe(
      'shared/api/contract.ts changed after out/main/index.js was built',
    );
  });

  it('builds nothing when every output is as new as the newest source, or newer', () => {
    expect(whyBuild(outputs(100, 200), { path: 'main/x.ts', mtimeMs: 100 })).toBeNull();
    expect(whyBuild(outputs(100, 200), { path: 'main/x.ts', mtimeMs: 10 })).toBeNull();
  });

  it('builds nothing without sources to build from (a copy of the app alone)', () => {
    expect(whyBuild(outputs(100, 200), null)).toBeNull();
  });
});

describe('newestOf', () => {
  it('is the most recently changed file, or null for none', () => {
    expect(newestOf([])).toBeNull();
    expect(
      newestOf([
        { path: 'a', mtimeMs: 3 },
        { path: 'b', mtimeMs: 9 },
        { path: 'c', mtimeMs: 5 },
      ]),
    ).toEqual({ path: 'b', mtimeMs: 9 });
  });
});
