import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeHolder, processIsAlive } from '../../../main/core/store/runner-lease.ts';
import type { Store } from '../../../main/core/store/store.ts';
import { tempStore } from './temp-store.ts';

let store: Store;
let cleanup: () => void;
beforeEach(() => ({ store, cleanup } = tempStore()));
afterEach(() => cleanup());

const app = { id: 'app', pid: 100, host: 'laptop', heartbeatAt: 1_000 };
const cli = { id: 'cli', pid: 200, host: 'laptop', heartbeatAt: 2_000 };
const alive = { staleAfterMs: 10_000, isAlive: () => true };

describe('queue pause', () => {
  it('persists the pause and its reason until an explicit resume', () => {
    store.queue.pause(
      'The gateway refused the key (401). Check the API key, then resume.',
      5,
      'auth',
      'auth',
    );
    expect(store.queue.get()).toEqual({
      paused: true,
      pauseReason: 'The gateway refused the key (401). Check the API key, then resume.',
      pauseCode: 'auth',
      pauseKind: 'auth',
      pausedAt: 5,
      pauseDetail: null,
    });
    store.queue.resume();
    expect(store.queue.get()).toEqual({
      paused: false,
      pauseReason: null,
      pauseCode: null,
      pauseKind: null,
      pausedAt: null,
      pauseDetail: null,
    });
  });
});

describe('runner lease', () => {
  it('lets one live process run the queue and names it to the other', () => {
    expect(store.queue.acquireRunner(app, alive)).toEqual({ acquired: true });
    const refused = store.queue.acquireRunner(cli, alive);
    expect(refused).toEqual({ acquired: false, holder: app });
    expect(describeHolder(app, 4_000)).toBe(
      'Another Atelier (process 100 on laptop) is running this queue (last seen 3 s ago). ' +
        'Close it, or use another data folder (--data DIR).',
    );
    expect(store.queue.heartbeat('app', 1_500)).toBe(true);
    expect(store.queue.acquireRunner(app, alive)).toEqual({ acquired: true });
  });

  it('is taken over from a holder that crashed on this machine, or went silent', () => {
    store.queue.acquireRunner(app, alive);
    const dead = { staleAfterMs: 10_000, isAlive: (pid: number) => pid !== app.pid };
    expect(store.queue.acquireRunner(cli, dead)).toEqual({ acquired: true });
    expect(store.queue.heartbeat('app', 3_000)).toBe(false);

    const remote = { ...app, host: 'desktop', heartbeatAt: 3_000 };
    store.queue.releaseRunner('cli');
    store.queue.acquireRunner(remote, alive);
    expect(store.queue.acquireRunner({ ...cli, heartbeatAt: 13_000 }, alive).acquired).toBe(false);
    expect(store.queue.acquireRunner({ ...cli, heartbeatAt: 13_001 }, alive).acquired).toBe(true);
    expect(store.queue.runner()).toMatchObject({ id: 'cli' });
  });

  it('probes processes without signalling them', () => {
    expect(processIsAlive(process.pid)).toBe(true);
    expect(processIsAlive(2 ** 30)).toBe(false);
  });
});
