import { isJobState, type JobState } from '../../../shared/jobs/states.ts';

/** The key of a job list: its batch and the states it shows ("12:" is every state). */
export function jobsKey(batchId: number, states?: readonly JobState[]): string {
  return `${batchId}:${[...new Set(states ?? [])].sort().join(',')}`;
}

export function parseJobsKey(key: string): { batchId: number; states?: JobState[] } {
  const [batch = '', list = ''] = key.split(':');
  const batchId = Number(batch);
  const states = list === '' ? [] : list.split(',');
  if (!Number.isSafeInteger(batchId) || batchId <= 0 || !states.every(isJobState)) {
    throw new Error(`"${key}" is not a job list key: build it with jobsKey(batchId, states).`);
  }
  return states.length > 0 ? { batchId, states } : { batchId };
}

/** The batch a key lists, and whether it filters by state. */
export function keyBatch(key: string): { batchId: number; filtered: boolean } {
  const colon = key.indexOf(':');
  return { batchId: Number(key.slice(0, colon)), filtered: colon < key.length - 1 };
}
