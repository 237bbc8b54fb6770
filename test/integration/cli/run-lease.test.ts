import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import type { StatusView } from '../../../main/cli/status/status-view.ts';
import {
  LEASE_STALE_AFTER_MS,
  processIsAlive,
  type RunnerLease,
} from '../../../main/core/store/runner-lease.ts';
import { openStore, type Store } from '../../../main/core/store/store.ts';
import { runCli, startCli, summaryOf, workspace } from './harness.ts';
import { pollUntil } from '../../support/poll-until.ts';

const CSV = `prompt,size\n${[1, 2, 3].map((i) => `picture ${i},64x64`).join('\n')}\n`;

let ws: ReturnType<typeof workspace>;
let store: Store | undefined;
let zombieParent: ChildProcess | undefined;
afterEach(() => {
  zombieParent?.kill('SIGKILL');
  zombieParent = undefined;
  if (store?.db.open) {
    if (store.db.inTransaction) store.db.exec('ROLLBACK');
    store.close();
  }
  store = undefined;
  ws?.remove();
});

/** The data folder's database, opened by the test as another Atelier would. */
function openDataStore(): Store {
  mkdirSync(ws.path('.atelier-data'), { recursive: true });
  return (store = openStore(ws.path('.atelier-data', 'atelier.db')));
}

function holdLease(lease: Partial<RunnerLease> = {}): RunnerLease {
  const holder = {
    id: 'other-runner',
    pid: process.pid, // this test process: alive, on this machine
    host: hostname(),
    heartbeatAt: Date.now(),
    ...lease,
  };
  const queue = (store ?? openDataStore()).queue;
  const previous = queue.runner();
  if (previous) queue.releaseRunner(previous.id);
  const taken = queue.acquireRunner(holder, {
    staleAfterMs: LEASE_STALE_AFTER_MS,
    isAlive: processIsAlive,
  });
  expect(taken.acquired).toBe(true);
  return holder;
}

const statusOf = async () =>
  JSON.parse((await runCli(['status', '--json'], { cwd: ws.dir })).stdout) as StatusView;

describe('atelier run and the runner lease', () => {
  it('refuses before importing anything while another live process runs the queue', async () => {
    ws = workspace({ 'p.csv': CSV });
    holdLease();
    // a writer busy in the database: an import would wait for it, a lease check does not
    store!.db.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    const result = await runCli(['run', 'p.csv', '--demo'], { cwd: ws.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Another Atelier (process ${process.pid} on ${hostname()})`);
    expect(Date.now() - started).toBeLessThan(4_000); // under the 5 s busy_timeout
    store!.db.exec('ROLLBACK');
    expect(store!.batches.list()).toEqual([]);
  });

  it('status shows a live runner only, by the same rules as the engine', async () => {
    ws = workspace();
    const live = holdLease();
    expect((await statusOf()).runner).toEqual({ pid: live.pid, host: live.host });

    holdLease({ id: 'stale', heartbeatAt: Date.now() - LEASE_STALE_AFTER_MS - 1_000 });
    expect((await statusOf()).runner).toBeNull();

    // a process of this machine that is gone (above any pid_max)
    holdLease({ id: 'gone', pid: 2 ** 22 + 17 });
    expect((await statusOf()).runner).toBeNull();
  });

  it('status shows a paused batch and why', async () => {
    ws = workspace();
    const db = openDataStore();
    const batch = db.batches.create({ name: 'held' }, [{ prompt: 'p', model: 'm' }], 1);
    db.batches.setPaused(batch.id, true, 'Paused.');
    expect((await statusOf()).batches[0]).toMatchObject({ paused: { reason: 'Paused.' } });
    const text = await runCli(['status'], { cwd: ws.dir });
    expect(text.stdout).toContain('paused:  Paused. Its waiting prompts are not sent');
  });

  it('a run cut short before its engine starts leaves its batch for resume, not paused', async () => {
    ws = workspace({ 'p.csv': CSV });
    const cli = startCli(['run', 'p.csv', '--demo'], { cwd: ws.dir });
    // imported; the demo gateway is still loading, before the Ctrl+C handler is installed
    await pollUntil(
      () => cli.output().stderr.includes('Imported 3 prompt(s)'),
      'the import is done',
    );
    cli.child.kill('SIGINT');
    await cli.done;

    const [batch] = (await statusOf()).batches;
    expect(batch).toMatchObject({ name: 'p', paused: null });
    const resumed = await runCli(['resume', '--json'], { cwd: ws.dir });
    expect(resumed.code).toBe(0);
    expect(summaryOf(resumed)).toMatchObject({ outcome: 'done', jobs: { succeeded: 3 } });
    expect(ws.files('atelier-library', 'p')).toHaveLength(3);
  });

  // An init that does not reap (a container's PID 1 that is the app) leaves a dead holder as a
  // zombie, which kill(pid, 0) still reports alive: its lease must not block the queue.
  it.skipIf(process.platform !== 'linux')(
    'takes over a lease held by a zombie process (Linux: read from /proc; elsewhere skipped)',
    async () => {
      ws = workspace({ 'p.csv': CSV });
      const pid = await zombie();
      holdLease({ pid });
      store!.close();

      const result = await runCli(['run', 'p.csv', '--demo', '--json'], { cwd: ws.dir });
      expect(result.stderr).not.toContain('Another Atelier');
      expect(result.code).toBe(0);
      expect(summaryOf(result)).toMatchObject({ outcome: 'done', jobs: { succeeded: 3 } });
      expect(processIsAlive(pid)).toBe(false);
      // a live process is still alive by the same probe
      expect(processIsAlive(process.pid)).toBe(true);
    },
  );
});

/**
 * A process that has exited and that nobody reaps: a shell starts a short child, then turns
 * (exec) into a sleep that never waits for it. Resolves with the zombie's pid once it is one.
 */
async function zombie(): Promise<number> {
  const parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 60'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  zombieParent = parent;
  const pid = await new Promise<number>((resolve) =>
    parent.stdout!.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))),
  );
  await pollUntil(() => {
    try {
      return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
    } catch {
      return false;
    }
  }, 'the child is a zombie');
  // what the old probe trusted: the zombie still answers kill(pid, 0)
  expect(() => process.kill(pid, 0)).not.toThrow();
  return pid;
}
