import { jobTotal } from './counts.ts';
import { errorMessage } from './error-message.ts';
import type { BatchesSlice, BatchSummary, SliceCreator } from './state.ts';

/** Batches per page of the list. */
export const BATCH_PAGE = 100;

export const createBatchesSlice: SliceCreator<BatchesSlice> = (api) => (set, get) => {
  /** Loads in flight: the late counts are kept until the last one answers. */
  let inFlight = 0;
  /** Only the newest first-page load may replace the list. */
  let generation = 0;

  async function loadPage(cursor: string | null): Promise<void> {
    inFlight++;
    const mine = cursor === null ? ++generation : generation;
    set((s) => ({
      batchesLoading: true,
      batchesStale: cursor === null ? false : s.batchesStale,
      batchCountsLate: s.batchCountsLate ?? new Map(),
    }));
    try {
      const page = await api.batches.list({ cursor, limit: BATCH_PAGE });
      set((s) => {
        if (mine !== generation) return {};
        const items = page.items.map((item) => withLateCounts(item, s.batchCountsLate));
        const batches = new Map(cursor === null ? [] : s.batches);
        for (const item of items) batches.set(item.id, item);
        const fresh = items.map((item) => item.id);
        const known = cursor === null ? [] : s.batchIds.filter((id) => !fresh.includes(id));
        return {
          batches,
          batchIds: [...known, ...fresh],
          batchesNext: page.next,
          batchesError: null,
        };
      });
    } catch (error) {
      set({ batchesError: errorMessage(error) });
    } finally {
      inFlight--;
      if (inFlight === 0) set({ batchesLoading: false, batchCountsLate: null });
    }
  }

  return {
    batches: new Map(),
    batchIds: [],
    batchesNext: null,
    batchesLoading: false,
    batchesStale: false,
    batchesError: null,
    batchCountsLate: null,
    finishedBatches: new Set(),
    finishedNotices: [],

    loadBatches: () => loadPage(null),

    async loadMoreBatches() {
      const next = get().batchesNext;
      if (next !== null) await loadPage(next);
    },

    dismissNotice(batchId) {
      set((s) => ({ finishedNotices: s.finishedNotices.filter((n) => n.batchId !== batchId) }));
    },
  };
};

function withLateCounts(
  item: BatchSummary,
  late: ReadonlyMap<number, Pick<BatchSummary, 'jobs' | 'downloads'>> | null,
): BatchSummary {
  const counts = late?.get(item.id);
  return counts ? { ...item, ...counts, jobCount: jobTotal(counts.jobs) } : item;
}
