import { MAX_ID_PAGE } from '../../../shared/api/paging.ts';

/** Runs a bulk call on at most MAX_ID_PAGE ids at a time (the contract's longest list), in turn. */
export async function inChunks<T>(
  ids: readonly number[],
  call: (chunk: number[]) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < ids.length; i += MAX_ID_PAGE) {
    results.push(await call(ids.slice(i, i + MAX_ID_PAGE)));
  }
  return results;
}
