import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore, type Store } from '../../../main/core/store/store.ts';
import type { NewJob } from '../../../main/core/store/job-repository.ts';

/** A real database file in a fresh temp folder; `cleanup` closes and deletes everything. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-store-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function tempStore(): { store: Store; file: string; cleanup: () => void } {
  const { dir, cleanup } = tempDir();
  const file = path.join(dir, 'atelier.db');
  const store = openStore(file);
  return {
    store,
    file,
    cleanup: () => {
      if (store.db.open) store.close();
      cleanup();
    },
  };
}

export function prompts(count: number, prefix = 'prompt'): NewJob[] {
  return Array.from({ length: count }, (_, i) => ({ prompt: `${prefix} ${i + 1}`, model: 'm' }));
}

/** Counts per state straight from the jobs table, to check the maintained counters. */
export function countsByScan(store: Store, batchId: number): Record<string, number> {
  const rows = store.db
    .prepare('SELECT state, count(*) AS n FROM jobs WHERE batch_id = ? GROUP BY state')
    .all(batchId) as Array<{ state: string; n: number }>;
  return Object.fromEntries(rows.map(({ state, n }) => [state, n]));
}
