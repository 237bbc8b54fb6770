import { setTimeout as delay } from 'node:timers/promises';
import type { Random } from './random.ts';

/** Time a request takes on the simulated upstream: fixed + per image + uniform jitter. */
export interface LatencyModel {
  fixedMs: number;
  perImageMs: number;
  jitterMs: number;
}

export function latencyFor(model: LatencyModel, images: number, random: Random): number {
  const jitter = model.jitterMs > 0 ? random() * model.jitterMs : 0;
  return Math.max(0, model.fixedMs + model.perImageMs * images + jitter);
}

/** Waits `ms`, or less if the client goes away: work for a vanished client is not finished. */
export function wait(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return delay(ms, undefined, { signal }).catch(() => undefined);
}
