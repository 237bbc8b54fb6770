import { MAX_DETAILS, MAX_ID_PAGE } from '../../../shared/api/paging.ts';
import { errorMessage } from './error-message.ts';
import { parseJobsKey } from './jobs-key.ts';
import { without } from './without.ts';
import type { JobIdList, JobsSlice, SliceCreator } from './state.ts';

/**
 * Ids first, details of the visible range later, as InvokeAI's queue does: a list of
 * 100,000 jobs costs its ids, and only the rows on screen are ever fetched.
 */
export const createJobsSlice: SliceCreator<JobsSlice> = (api) => (set, get) => {
  /** Only the newest first-page load of a key may replace its list. */
  const generations = new Map<string, number>();

  async function loadIds(key: string, cursor: string | null): Promise<void> {
    const mine = cursor === null ? bump(generations, key) : (generations.get(key) ?? 0);
    try {
      const page = await api.jobs.ids({ ...parseJobsKey(key), cursor, limit: MAX_ID_PAGE });
      set((s) => {
        if ((generations.get(key) ?? 0) !== mine) return {};
        const before = s.jobIdsByKey.get(key);
        const list: JobIdList = {
          ids: cursor === null || !before ? page.ids : [...before.ids, ...page.ids],
          next: page.next,
          total: page.total,
          stale: cursor === null ? false : (before?.stale ?? false),
        };
        return { jobIdsByKey: new Map(s.jobIdsByKey).set(key, list), jobsError: null };
      });
    } catch (error) {
      set({ jobsError: errorMessage(error) });
    }
  }

  async function loadDetails(ids: number[]): Promise<void> {
    try {
      const jobs = await api.jobs.byIds({ ids });
      set((s) => {
        const byId = new Map(s.jobsById);
        for (const job of jobs) {
          const late = s.jobsPending.get(job.id);
          byId.set(job.id, late ? { ...job, state: late } : job);
        }
        return { jobsById: byId, jobsPending: without(s.jobsPending, ids), jobsError: null };
      });
    } catch (error) {
      set((s) => ({ jobsPending: without(s.jobsPending, ids), jobsError: errorMessage(error) }));
    }
  }

  return {
    jobIdsByKey: new Map(),
    jobsById: new Map(),
    jobsPending: new Map(),
    jobsError: null,

    fetchIds: (key) => loadIds(key, null),

    async fetchMoreIds(key) {
      const next = get().jobIdsByKey.get(key)?.next;
      if (next) await loadIds(key, next);
    },

    async fetchRange(key, start, end) {
      const { jobIdsByKey, jobsById, jobsPending } = get();
      const list = jobIdsByKey.get(key);
      if (!list) return;
      const wanted = list.ids
        .slice(Math.max(0, start), Math.max(0, end))
        .filter((id) => !jobsById.has(id) && !jobsPending.has(id));
      if (wanted.length === 0) return;
      set((s) => {
        const pending = new Map(s.jobsPending);
        for (const id of wanted) pending.set(id, null);
        return { jobsPending: pending };
      });
      const calls: Promise<void>[] = [];
      for (let i = 0; i < wanted.length; i += MAX_DETAILS) {
        calls.push(loadDetails(wanted.slice(i, i + MAX_DETAILS)));
      }
      await Promise.all(calls);
    },
  };
};

function bump(generations: Map<string, number>, key: string): number {
  const next = (generations.get(key) ?? 0) + 1;
  generations.set(key, next);
  return next;
}
