import type { BatchSummary } from '../../data/types.ts';

export type BatchMove = { id: number; position: 'front' | 'back' };

/**
 * The `batches.move` calls (front or back only) that take `order` to the order with `id` at
 * `to`: the batches above the target sent to the front bottom-up, or those from it down sent
 * to the back, whichever is fewer calls.
 */
export function reorderPlan(order: readonly number[], id: number, to: number): BatchMove[] {
  const from = order.indexOf(id);
  if (from < 0 || to < 0 || to >= order.length || from === to) return [];
  const next = order.filter((each) => each !== id);
  next.splice(to, 0, id);
  const fronts = next.slice(0, to + 1).reverse();
  const backs = next.slice(to);
  return fronts.length <= backs.length
    ? fronts.map((each) => ({ id: each, position: 'front' }))
    : backs.map((each) => ({ id: each, position: 'back' }));
}

/** Still has work: jobs to run or images to fetch. */
export function isActive(batch: BatchSummary): boolean {
  const { jobs, downloads } = batch;
  return (
    jobs.queued + jobs.running + jobs.retrying > 0 || downloads.pending + downloads.downloading > 0
  );
}

/** Batches with work in run order (priority, then age), then finished ones, newest first. */
export function runOrder(batches: readonly BatchSummary[]): {
  active: BatchSummary[];
  finished: BatchSummary[];
} {
  const active = batches.filter(isActive).sort((a, b) => b.priority - a.priority || a.id - b.id);
  const finished = batches.filter((b) => !isActive(b)).sort((a, b) => b.id - a.id);
  return { active, finished };
}
