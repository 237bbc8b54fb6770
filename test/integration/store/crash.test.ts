import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recoverAfterCrash } from '../../../main/core/store/recovery.ts';
import { openStore } from '../../../main/core/store/store.ts';
import { prompts, tempDir } from './temp-store.ts';

// Node 24 from the devDependency: the child runs TypeScript and this better-sqlite3 build
const node = path.resolve('node_modules/.bin/node');
const child = path.resolve('test/integration/store/fixtures/claim-then-hang.ts');

let cleanup = () => {};
afterEach(() => cleanup());

function claimInChildThenKill(file: string, count: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const proc = spawn(node, [child, file, String(count)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stderr.on('data', (chunk) => (err += chunk));
    proc.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /claimed ([\d,]+)\n/.exec(out);
      if (match) {
        proc.kill('SIGKILL');
        proc.on('exit', () => resolve(match[1]!.split(',').map(Number)));
      }
    });
    proc.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`child exited ${code}: ${err}`));
    });
  });
}

describe('a claim survives kill -9', () => {
  it('keeps the committed running jobs, which recovery fails as uncertain, never requeues', async () => {
    const { dir, cleanup: removeDir } = tempDir();
    const file = path.join(dir, 'atelier.db');
    let store = openStore(file);
    cleanup = () => {
      if (store.db.open) store.close();
      removeDir();
    };
    const batch = store.batches.create({ name: 'b' }, prompts(10), 1);
    store.close();

    const claimed = await claimInChildThenKill(file, 4);
    expect(claimed).toHaveLength(4);

    store = openStore(file);
    expect(store.jobs.listRunning().map((job) => job.id)).toEqual(claimed);
    const report = recoverAfterCrash(store, 5_000);
    expect(report).toMatchObject({ uncertain: claimed, interruptedAttempts: 4 });
    expect(store.jobs.counts(batch.id)).toMatchObject({ failed: 4, queued: 6, running: 0 });
    expect(store.jobs.transitionsOf(claimed[0]!).map((t) => `${t.from}→${t.to}`)).toEqual([
      'queued→running',
      'running→failed',
    ]);
    // the next claim takes fresh jobs only: nothing in flight is resent
    const next = store.jobs.claimRunnable(10, 6_000).map((job) => job.id);
    expect(next).toHaveLength(6);
    expect(next.filter((id) => claimed.includes(id))).toEqual([]);
  });
});
