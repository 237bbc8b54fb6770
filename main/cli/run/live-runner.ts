import { hostname } from 'node:os';
import {
  LEASE_STALE_AFTER_MS,
  mayTakeOver,
  processIsAlive,
  type RunnerLease,
} from '../../core/store/runner-lease.ts';
import type { Store } from '../../core/store/store.ts';

/**
 * The process running this data folder's queue now, or null when a new engine could take
 * it: the engine's own rules, read without taking anything.
 */
export function liveRunner(store: Store, now = Date.now()): RunnerLease | null {
  const holder = store.queue.runner();
  // this process holds no lease: an empty id never matches a holder's
  const free = mayTakeOver(holder, { id: '', host: hostname() }, now, {
    staleAfterMs: LEASE_STALE_AFTER_MS,
    isAlive: processIsAlive,
  });
  return free ? null : holder;
}
