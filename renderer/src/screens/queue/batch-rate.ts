import { useRef } from 'react';
import { RATE_WINDOW_MS } from '../../../../shared/jobs/rate.ts';

/** Jobs settled per second over the last seconds, from the counts the events bring. */
export function useBatchRate(done: number, now: () => number = Date.now): number {
  const samples = useRef<Array<{ at: number; done: number }>>([]);
  const at = now();
  const list = samples.current;
  if (list.length === 0 || list[list.length - 1]!.done !== done) list.push({ at, done });
  while (list.length > 2 && at - list[0]!.at > RATE_WINDOW_MS) list.shift();
  const first = list[0]!;
  const seconds = (at - first.at) / 1000;
  return seconds > 0.5 ? (done - first.done) / seconds : 0;
}
