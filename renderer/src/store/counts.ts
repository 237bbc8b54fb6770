import type { BatchSummary } from './state.ts';

/** Every job is in exactly one state, so the counts add up to the batch's jobs. */
export function jobTotal(jobs: BatchSummary['jobs']): number {
  let total = 0;
  for (const n of Object.values(jobs)) total += n;
  return total;
}

export function sameCounts<T extends Record<string, number>>(a: T, b: T): boolean {
  for (const key of Object.keys(b) as Array<keyof T>) if (a[key] !== b[key]) return false;
  return true;
}
