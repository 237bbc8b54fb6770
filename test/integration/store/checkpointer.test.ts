import { existsSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { AUTOCHECKPOINT_PAGES } from '../../../main/core/store/database.ts';
import { checkpointInBackground } from '../../../main/core/store/checkpointer.ts';
import { pollUntil } from '../../support/poll-until.ts';
import { prompts, tempStore } from './temp-store.ts';

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

describe('background checkpoints', () => {
  it('copy the WAL into the database file from another thread, never from the writer', async () => {
    const temp = tempStore();
    cleanup = temp.cleanup;
    const { store, file } = temp;
    const checkpoints = checkpointInBackground(store.db, { intervalMs: 20 });
    // the writer's own checkpoint now waits for a much bigger WAL: it will not run here
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBeGreaterThan(
      AUTOCHECKPOINT_PAGES,
    );
    const before = statSync(file).size;
    store.batches.create({ name: 'many' }, prompts(5_000, 'a long enough prompt to fill pages'), 1);
    await pollUntil(
      () => statSync(file).size > before + 100_000,
      'a checkpoint wrote the database file',
    );
    // (in WAL mode only a checkpoint writes the database file, and the writer did none)
    await checkpoints.stop();
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(AUTOCHECKPOINT_PAGES);
  });

  it('stop can be awaited as the last thing a process does, and twice', async () => {
    const temp = tempStore();
    cleanup = temp.cleanup;
    const { db } = temp.store;
    const checkpoints = checkpointInBackground(db, { intervalMs: 20 });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBeGreaterThan(AUTOCHECKPOINT_PAGES);
    await expect(Promise.all([checkpoints.stop(), checkpoints.stop()])).resolves.toEqual([
      undefined,
      undefined,
    ]);
    await expect(checkpoints.stop()).resolves.toBeUndefined();
    // stopped: the writer checkpoints by itself again, and the database is still usable
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(AUTOCHECKPOINT_PAGES);
    temp.store.batches.create({ name: 'after' }, prompts(3, 'still writable'), 1);
    expect(temp.store.batches.list().map((b) => b.name)).toContain('after');
  });

  it('stop resolves once the worker closed its connection: the database is then this one alone', async () => {
    const temp = tempStore();
    cleanup = temp.cleanup;
    const { store, file } = temp;
    const checkpoints = checkpointInBackground(store.db, { intervalMs: 5 });
    store.batches.create({ name: 'some' }, prompts(500, 'a prompt'), 1);
    const before = statSync(file).size;
    await pollUntil(() => statSync(file).size > before, 'the worker checkpointed');
    await checkpoints.stop();
    // (leaving WAL mode needs every other connection closed: it stays 'wal' otherwise)
    expect(store.db.pragma('journal_mode = DELETE', { simple: true })).toBe('delete');
    expect(existsSync(`${file}-wal`)).toBe(false);
  });
});
