import type { JobState } from '../../../../shared/jobs/states.ts';
import type { BatchSummary } from '../../data/types.ts';

export type JobFilter = 'all' | 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled';

export const FILTERS: ReadonlyArray<{ id: JobFilter; label: string; states?: JobState[] }> = [
  { id: 'all', label: 'All' },
  { id: 'queued', label: 'Queued', states: ['queued'] },
  { id: 'running', label: 'Running', states: ['running', 'retrying'] },
  { id: 'succeeded', label: 'Succeeded', states: ['succeeded'] },
  { id: 'failed', label: 'Failed', states: ['failed'] },
  { id: 'canceled', label: 'Canceled', states: ['canceled'] },
];

export const statesOf = (filter: JobFilter) => FILTERS.find((f) => f.id === filter)?.states;

/** The jobs a filter shows, from the batch's counts (which the events keep fresh). */
export function filterCount(batch: BatchSummary, filter: JobFilter): number {
  const { jobs } = batch;
  if (filter === 'all') return batch.jobCount;
  if (filter === 'running') return jobs.running + jobs.retrying;
  return jobs[filter];
}
