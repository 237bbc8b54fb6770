import * as fsp from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { syncDirectory, type LibraryFs } from '../../../main/core/library/library-fs.ts';

/** An fs whose folder fsyncs finish only when the test says so, recording their order. */
function controlledFs() {
  const log: string[] = [];
  const pending: (() => void)[] = [];
  let started = 0;
  const fs: LibraryFs = {
    ...fsp,
    open: (async () => ({
      sync: () => {
        const n = ++started;
        log.push(`start ${n}`);
        return new Promise<void>((resolve) =>
          pending.push(() => {
            log.push(`end ${n}`);
            resolve();
          }),
        );
      },
      close: async () => undefined,
    })) as unknown as LibraryFs['open'],
  };
  const finishNext = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    pending.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { fs, log, finishNext, started: () => started };
}

describe('folder fsync shared between concurrent writers', () => {
  it('runs one fsync for all callers that arrive while one is running, started after them', async () => {
    const { fs, log, finishNext, started } = controlledFs();
    const done: string[] = [];
    const first = syncDirectory(fs, '/lib/batch').then(() => done.push('first'));
    await new Promise((resolve) => setImmediate(resolve));
    // Three more renames finish while the first fsync runs: they share the next one.
    const later = ['a', 'b', 'c'].map((name) =>
      syncDirectory(fs, '/lib/batch').then(() => done.push(name)),
    );
    await finishNext();
    expect(done).toEqual(['first']); // a, b, c need an fsync that started after their call
    await finishNext();
    await Promise.all([first, ...later]);
    expect(done).toEqual(['first', 'a', 'b', 'c']);
    expect(started()).toBe(2);
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('keeps folders apart', async () => {
    const { fs, finishNext, started } = controlledFs();
    const both = Promise.all([syncDirectory(fs, '/lib/a'), syncDirectory(fs, '/lib/b')]);
    await finishNext();
    await finishNext();
    await both;
    expect(started()).toBe(2);
  });
});
