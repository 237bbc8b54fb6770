import { queryOptions, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { Api } from '../../../shared/api/types.ts';
import { useData } from './data-context.ts';
import { keys } from './keys.ts';
import { useOpened } from './opening.ts';
import type { ExportProgress, QueueState } from './types.ts';

/** What every screen may read of the service: its info, settings, key, queue and catalogue. */

export function useAppInfo() {
  return useQuery(appInfoQuery(useData().api));
}

export function useSettings() {
  return useQuery(settingsQuery(useData().api));
}

/** What the frame shows from its first paint (the notices above the screen, the theme). */
export const appInfoQuery = (api: Api) =>
  queryOptions({ queryKey: keys.appInfo(), queryFn: () => api.app.info() });
export const settingsQuery = (api: Api) =>
  queryOptions({ queryKey: keys.settings(), queryFn: () => api.settings.get() });

/** The shared key's status, or (given a profile) that gateway's key. */
export function useKeyStatus(profile: string | null = null) {
  const { api } = useData();
  return useQuery({
    queryKey: profile === null ? keys.keyStatus() : keys.profileKeyStatus(profile),
    queryFn: () => api.key.status(profile === null ? {} : { profile }),
  });
}

/** The queue: engine, runner, limits, and (from events) progress and pause. */
export function useQueueState(): UseQueryResult<QueueState>;
/** The part `select` picks: its reader renders again only when that part changes. */
export function useQueueState<T>(select: (queue: QueueState) => T): UseQueryResult<T>;
export function useQueueState<T>(select?: (queue: QueueState) => T) {
  const { api } = useData();
  return useQuery({
    queryKey: keys.queueState(),
    queryFn: () => api.queue.state(),
    select,
    enabled: useOpened(),
  });
}

/** The model catalogue, built-in and the person's own entries. */
export function useCatalogue() {
  const { api } = useData();
  return useQuery({
    queryKey: keys.catalogue(),
    queryFn: async () => (await api.models.catalogue()).entries,
  });
}

export function useLibraryInfo() {
  const { api } = useData();
  return useQuery({ queryKey: keys.libraryInfo(), queryFn: () => api.library.info() });
}

/** Spent today, over the last 30 days, by model and gateway, and the caps as they stand. */
export function useSpendSummary() {
  const { api } = useData();
  return useQuery({ queryKey: keys.spendSummary(), queryFn: () => api.spend.summary({}) });
}

/** Exports this window heard of (started here or elsewhere), by id. */
export function useExports(): ReadonlyMap<string, ExportProgress> {
  const { queries } = useData();
  const { data } = useQuery({
    queryKey: keys.exports(),
    // only events fill it (export.progress); nothing to ask the service for
    queryFn: () =>
      queries.getQueryData<ReadonlyMap<string, ExportProgress>>(keys.exports()) ?? new Map(),
    initialData: () => new Map<string, ExportProgress>(),
  });
  return data;
}
