import type { JobState } from '../../../shared/jobs/states.ts';
import type { ImageQueryInput } from './types.ts';

/**
 * Every query's key: the contract's area and method, then its input. The event pump finds
 * what an event touches by these prefixes (apply-event.ts), so a screen that reads the
 * service through these keys is kept fresh without a line of its own.
 */
export const keys = {
  appInfo: () => ['app', 'info'] as const,
  settings: () => ['settings', 'get'] as const,
  keyStatus: () => ['key', 'status'] as const,
  /** A gateway profile's key (its own, or the shared one serving it). */
  profileKeyStatus: (profile: string) => ['key', 'status', { profile }] as const,
  queueState: () => ['queue', 'state'] as const,
  catalogue: () => ['models', 'catalogue'] as const,
  libraryInfo: () => ['library', 'info'] as const,
  /** The library move under way, the last one, or one interrupted (fed by library.move). */
  libraryMove: () => ['library', 'moveStatus'] as const,
  batches: () => ['batches', 'list'] as const,
  batch: (id: number) => ['batches', 'get', { id }] as const,
  /** A batch's job ids in some states (every state: none given), all pages. */
  jobIds: (batchId: number, states?: readonly JobState[]) =>
    ['jobs', 'ids', { batchId, states: states ? [...new Set(states)].sort() : null }] as const,
  /** One job's summary, fetched with the others asked for at the same moment (jobs.byIds). */
  job: (id: number) => ['jobs', 'byIds', id] as const,
  jobDetail: (id: number) => ['jobs', 'get', { id }] as const,
  attempts: (jobId: number) => ['jobs', 'attempts', { jobId }] as const,
  /** How many of a selection each bulk action applies to (jobs.actionable). */
  actionable: (batchId: number, selection: string) =>
    ['jobs', 'actionable', { batchId, selection }] as const,
  /** Failed jobs of a batch of some kinds, a screenful (for the failure groups). */
  failedSample: (batchId: number, kinds: readonly string[]) =>
    ['jobs', 'failed', { batchId, kinds }] as const,
  /** A gallery view's ids (all pages) with its group headers when it groups. */
  imageIds: (query: ImageQueryInput, by: 'batch' | 'day' | null) =>
    ['images', 'ids', { query, by }] as const,
  image: (id: number) => ['images', 'byIds', id] as const,
  imageDetail: (id: number) => ['images', 'get', { id }] as const,
  imageCount: (query: ImageQueryInput) => ['images', 'count', { query }] as const,
  /** The sizes and models the library's images have (read again when a filter is opened). */
  imageFacets: () => ['images', 'facets'] as const,
  /** What was spent: today, the last days, by model and gateway; the caps as they stand. */
  spendSummary: () => ['spend', 'summary'] as const,
  /** The Compose draft as last saved (read once: then the window's own state leads). */
  composeDraft: () => ['compose', 'draft'] as const,
  /** A prompt-help request this window started: `prompts.get`, then its prompts.progress events. */
  promptHelp: (id: string) => ['prompts', 'get', { id }] as const,
  /** Exports this window has heard of, by id (fed by export.progress events). */
  exports: () => ['exports', 'progress'] as const,
};

/** The prefixes an event's invalidation matches on. */
export const areas = {
  batches: ['batches'] as const,
  batchList: ['batches', 'list'] as const,
  batchDetails: ['batches', 'get'] as const,
  jobLists: ['jobs', 'ids'] as const,
  jobs: ['jobs', 'byIds'] as const,
  jobDetails: ['jobs', 'get'] as const,
  attempts: ['jobs', 'attempts'] as const,
  actionable: ['jobs', 'actionable'] as const,
  failedSamples: ['jobs', 'failed'] as const,
  imageLists: ['images', 'ids'] as const,
  images: ['images', 'byIds'] as const,
  imageDetails: ['images', 'get'] as const,
  imageCounts: ['images', 'count'] as const,
};
