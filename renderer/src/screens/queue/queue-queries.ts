import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { MAX_DETAILS } from '../../../../shared/api/paging.ts';
import type { Api } from '../../../../shared/api/types.ts';
import type { JobState } from '../../../../shared/jobs/states.ts';
import { useData } from '../../data/data-context.ts';
import type { Data } from '../../data/data.ts';
import { loadIdList } from '../../data/id-lists.ts';
import { inChunks } from '../../data/in-chunks.ts';
import { keys } from '../../data/keys.ts';
import type { AttemptSummary, BatchSummary } from '../../data/types.ts';
import { isRateLimitCode } from './failure-groups.ts';

/** Batches per page of the list. */
export const BATCH_PAGE = 100;
/** Attempts shown for one job; more than this is a job support reads in the CLI. */
const MAX_ATTEMPTS = 200;

const batchPages = (api: Api) => ({
  queryKey: keys.batches(),
  queryFn: ({ pageParam }: { pageParam: string | null }) =>
    api.batches.list({ cursor: pageParam, limit: BATCH_PAGE }),
  initialPageParam: null as string | null,
  getNextPageParam: (page: { next: string | null }) => page.next,
});

/** The batches, newest first, page by page (their counts follow the events). */
export function useBatches() {
  const { api } = useData();
  const query = useInfiniteQuery({
    ...batchPages(api),
    select: (data) => {
      const seen = new Set<number>();
      return data.pages.flatMap((page) =>
        page.items.filter((b) => !seen.has(b.id) && Boolean(seen.add(b.id))),
      );
    },
  });
  return {
    batches: query.data ?? [],
    loading: query.isPending,
    error: query.error,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
  };
}

/** Starts reading the batches before a screen that lists them renders (the gallery's filter). */
export function prefetchBatches({ api, queries }: Data): Promise<void> {
  return queries.prefetchInfiniteQuery(batchPages(api));
}

/** One batch as the list has it (undefined until listed, or once deleted). */
export function useBatchSummary(id: number | null): BatchSummary | undefined {
  const { api } = useData();
  const { data } = useInfiniteQuery({
    ...batchPages(api),
    select: (pages) =>
      id === null ? undefined : pages.pages.flatMap((p) => p.items).find((b) => b.id === id),
  });
  return data;
}

/** Failures by kind, partial results, expired links, requests sent. */
export function useBatchDetail(id: number) {
  const { api } = useData();
  return useQuery({ queryKey: keys.batch(id), queryFn: () => api.batches.get({ id }) });
}

/** A batch's job ids in `states` (every state when left out), all of them. */
export function useJobIds(batchId: number, states?: readonly JobState[]) {
  const { api, queries } = useData();
  return useQuery({
    queryKey: keys.jobIds(batchId, states),
    queryFn: ({ queryKey }) =>
      loadIdList(queries, queryKey, (cursor, limit) =>
        api.jobs.ids({ batchId, ...(states ? { states: [...states] } : {}), cursor, limit }),
      ),
  });
}

/** One job's row; fetched with the other rows of the same render when `wanted`. */
export function useJob(id: number, wanted: boolean) {
  const data = useData();
  return useQuery({
    queryKey: keys.job(id),
    queryFn: () => data.jobs.load(id),
    enabled: wanted,
    // rows scrolled away are let go: 100,000 summaries would hold ~100 MB
    gcTime: 30_000,
  });
}

export function useJobDetail(id: number) {
  const { api } = useData();
  return useQuery({ queryKey: keys.jobDetail(id), queryFn: () => api.jobs.get({ id }) });
}

export function useAttempts(jobId: number) {
  const { api } = useData();
  return useQuery({
    queryKey: keys.attempts(jobId),
    queryFn: async () => {
      const items: AttemptSummary[] = [];
      let cursor: string | null = null;
      do {
        const page = await api.jobs.attempts({ jobId, cursor, limit: 100 });
        items.push(...page.items);
        cursor = page.next;
      } while (cursor !== null && items.length < MAX_ATTEMPTS);
      return items;
    },
  });
}

/** Of a batch's failed downloads, those the full disk refused. */
export function useDiskFull(batchId: number, enabled: boolean) {
  const { api } = useData();
  const query = { batchId, downloadStates: ['failed' as const], failureCodes: ['disk-full'] };
  return useQuery({
    queryKey: keys.imageCount(query),
    queryFn: async () => (await api.images.count({ query })).total,
    enabled,
  });
}

/** Of a batch's jobs that ran out of retries, a screenful's worth the gateway rate limited. */
export function useRateLimited(batchId: number, enabled: boolean) {
  const { api } = useData();
  const kinds = ['retries-exhausted' as const];
  return useQuery({
    queryKey: keys.failedSample(batchId, kinds),
    queryFn: async () => {
      const page = await api.jobs.ids({ batchId, failureKinds: kinds, limit: MAX_DETAILS });
      const jobs = page.ids.length === 0 ? [] : await api.jobs.byIds({ ids: page.ids });
      return jobs.filter((job) => isRateLimitCode(job.errorCode)).length;
    },
    enabled,
  });
}

/** How many of the selected jobs each bulk action applies to (the service's action table). */
export function useActionable(batchId: number, ids: readonly number[]) {
  const { api } = useData();
  return useQuery({
    queryKey: keys.actionable(batchId, digest(ids)),
    queryFn: async () => {
      const parts = await inChunks(ids, (chunk) => api.jobs.actionable({ ids: chunk }));
      const total = { ...parts[0]! };
      for (const part of parts.slice(1)) {
        for (const action of Object.keys(total) as Array<keyof typeof total>) {
          total[action] += part[action];
        }
      }
      return total;
    },
    enabled: ids.length > 0,
    // the bar keeps its buttons while a new selection is counted
    placeholderData: keepPreviousData,
  });
}

/** A short key for a long selection (100,000 ids would make a 600 KB query key). */
export function digest(ids: readonly number[]): string {
  let hash = 0x811c9dc5;
  for (const id of ids) {
    hash ^= id;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${ids.length}:${hash.toString(36)}`;
}
