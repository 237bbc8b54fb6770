import { describe, expect, it } from 'vitest';
import { MAX_ID_PAGE } from '../../../shared/api/paging.ts';
import { inChunks } from '../../../renderer/src/data/in-chunks.ts';

describe('inChunks', () => {
  it('sends any number of ids a page at a time, one call after another, in order', async () => {
    const ids = Array.from({ length: 2 * MAX_ID_PAGE + 5 }, (_, i) => i + 1);
    const calls: Array<{ first: number; size: number }> = [];
    let running = 0;
    const results = await inChunks(ids, async (chunk) => {
      expect(++running).toBe(1);
      calls.push({ first: chunk[0]!, size: chunk.length });
      await Promise.resolve();
      running--;
      return chunk.length;
    });
    expect(calls).toEqual([
      { first: 1, size: MAX_ID_PAGE },
      { first: MAX_ID_PAGE + 1, size: MAX_ID_PAGE },
      { first: 2 * MAX_ID_PAGE + 1, size: 5 },
    ]);
    expect(results).toEqual([MAX_ID_PAGE, MAX_ID_PAGE, 5]);
  });

  it('makes no call for no ids', async () => {
    expect(await inChunks([], async () => 1)).toEqual([]);
  });
});
