import { notifyManager, type InfiniteData, type Query } from '@tanstack/react-query';
import type { ApiEvent, ApiEventOf } from '../../../shared/api/events.ts';
import type { JobState } from '../../../shared/jobs/states.ts';
import type { Data } from './data.ts';
import type { IdList } from './id-lists.ts';
import { areas, keys } from './keys.ts';
import type {
  BatchCounts,
  BatchDetail,
  BatchSummary,
  ExportProgress,
  ImageQueryInput,
  JobDetail,
  JobSummary,
  KeyStatus,
  PromptHelp,
  PromptHelpProgress,
  QueueState,
} from './types.ts';
import { withProgress } from './prompt-progress.ts';

/** A gallery view's list: its ids, its group headers, and how many images were written since. */
export interface GalleryList extends IdList {
  groups: ReadonlyArray<{ key: string; label: string; count: number }> | null;
  /** Images written since the list was read: they may belong in it. */
  written: number;
}

export type BatchPages = InfiniteData<{ items: BatchSummary[]; next: string | null }>;

/**
 * What each event does to the cache, in one table (docs/app.md, "How the window gets its
 * data"): where the event carries the data (a job's state, a batch's counts, the queue's
 * progress) the cache is written at once; otherwise the queries it touches, and only those,
 * are marked out of date and the ones on screen fetched again. One delivery is one render.
 */
export function applyEvents(data: Data, events: readonly ApiEvent[]): void {
  notifyManager.batch(() => {
    data.refresher.during(() => {
      for (const event of events) applyEvent(data, event);
    });
  });
}

/**
 * A running batch's detail (requests sent, partial results) moves with every delivery, and
 * reading it costs a request and the service a count over its attempts: it is read again at
 * most this often, and at once when its failures move (failure groups show within a second).
 */
export const DETAIL_GAP_MS = 1500;

function applyEvent(data: Data, event: ApiEvent): void {
  const { queries, refresher } = data;
  switch (event.type) {
    case 'progress': {
      const { paused, batches, ...progress } = event.payload;
      queries.setQueryData<QueueState>(keys.queueState(), (q) => q && { ...q, progress, paused });
      for (const { id, jobs, downloads, spent } of batches) {
        setCounts(data, id, spent ? { jobs, downloads, spent } : { jobs, downloads });
      }
      return;
    }
    case 'batch.finished': {
      const { batchId, jobs, downloads } = event.payload;
      setCounts(data, batchId, { jobs, downloads });
      refresher.refreshKey(keys.batch(batchId));
      refresher.refreshKey(keys.spendSummary());
      return;
    }
    case 'jobs.changed':
      return jobsChanged(data, event.payload.changes, event.payload.batches);
    case 'jobs.updated': {
      const { ids, batches } = event.payload;
      if (ids.length > 0) {
        for (const id of ids) {
          refresher.refreshKey(keys.job(id));
          refresher.refreshKey(keys.jobDetail(id));
        }
      } else {
        refresher.refresh(areas.jobs, (q) => inBatches(q, batches));
        refresher.refresh(areas.jobDetails, (q) => inBatches(q, batches));
      }
      refresher.refresh(
        areas.actionable,
        (q) => batchOfKey(q) !== null && batches.includes(batchOfKey(q)!),
      );
      return;
    }
    case 'videos.changed': {
      // the event carries each video job's platform status as it is now: written, not asked
      for (const { jobId, batchId: _batch, state, ...video } of event.payload.jobs) {
        const update = <T extends JobSummary>(row: T | undefined) =>
          row && { ...row, state, video };
        queries.setQueryData<JobSummary>(keys.job(jobId), update);
        queries.setQueryData<JobDetail>(keys.jobDetail(jobId), update);
      }
      return;
    }
    case 'prompts.progress':
      return promptProgress(data, event.payload);
    case 'batches.changed': {
      const { ids, deleted } = event.payload;
      refresher.refresh(areas.batchList);
      for (const id of ids) if (!deleted.includes(id)) refresher.refreshKey(keys.batch(id));
      if (deleted.length > 0) forgetBatches(data, deleted);
      return;
    }
    case 'images.written': {
      const { images } = event.payload;
      for (const image of images) {
        refresher.refreshKey(keys.image(image.id));
        refresher.refreshKey(keys.imageDetail(image.id));
        refresher.refreshKey(keys.jobDetail(image.jobId));
      }
      // the view brings them in when it will not move what the person looks at (GalleryGrid)
      queries.setQueriesData<GalleryList>(
        { queryKey: areas.imageLists },
        (list) => list && { ...list, written: list.written + images.length },
      );
      // an edit written counts among its source's edits
      refresher.refresh(areas.imageCounts, countsEdits);
      return;
    }
    case 'images.deleted':
      return imagesDeleted(data, event.payload.ids);
    case 'images.changed':
      return imagesChanged(data, event.payload);
    case 'export.progress':
      queries.setQueryData<ReadonlyMap<string, ExportProgress>>(keys.exports(), (known) =>
        new Map(known).set(event.payload.id, event.payload),
      );
      return;
    case 'queue.paused':
      queries.setQueryData<QueueState>(
        keys.queueState(),
        (q) => q && { ...q, paused: event.payload },
      );
      refresher.refreshKey(keys.spendSummary()); // a budget pause: what its caps stand at
      return;
    case 'queue.resumed':
      queries.setQueryData<QueueState>(keys.queueState(), (q) => q && { ...q, paused: null });
      return;
    case 'limits.changed':
      queries.setQueryData<QueueState>(
        keys.queueState(),
        (q) => q && { ...q, limits: event.payload },
      );
      return;
    case 'settings.changed':
      // (prices, the currency and the caps change what the spend says)
      for (const key of [
        keys.settings(),
        keys.catalogue(),
        keys.libraryInfo(),
        keys.appInfo(),
        keys.spendSummary(),
      ]) {
        refresher.refreshKey(key);
      }
      refresher.refreshKey(keys.queueState()); // a new gateway or library restarts the queue
      return;
    case 'key.changed':
      if (!event.payload.profile) queries.setQueryData<KeyStatus>(keys.keyStatus(), event.payload);
      // each gateway's key: its own, or the shared one that serves it
      refresher.refresh(keys.keyStatus(), (q) => q.queryKey.length > 2);
      refresher.refreshKey(keys.appInfo());
      refresher.refreshKey(keys.queueState());
      return;
    case 'library.move':
      queries.setQueryData(keys.libraryMove(), event.payload);
      // once it is done the library is the new folder
      if (event.payload.state !== 'running') refresher.refreshKey(keys.libraryInfo());
      return;
    case 'resync':
      // events were missed: everything shown is read again
      refresher.refresh([]);
      return;
  }
}

/**
 * A prompt-help request's prompts, written into its query: only a request this window started
 * is cached (another window's events pass by). An event during its `prompts.get` asks once
 * more when that ends (the answer may predate it); one that shows prompts were missed asks now.
 */
function promptProgress(data: Data, event: PromptHelpProgress): void {
  const { queries, refresher } = data;
  const key = keys.promptHelp(event.id);
  const query = queries.getQueryCache().find({ queryKey: key, exact: true });
  const help = query?.state.data as PromptHelp | undefined;
  if (!query) return;
  if (!help || query.state.fetchStatus === 'fetching') return refresher.refreshKey(key);
  const next = withProgress(help, event);
  if (next.gap) return refresher.refreshKey(key);
  if (next.help !== help) queries.setQueryData<PromptHelp>(key, next.help);
}

const jobTotal = (jobs: BatchSummary['jobs']) => Object.values(jobs).reduce((a, b) => a + b, 0);

function sameCounts(a: BatchCounts, b: BatchCounts): boolean {
  for (const key of Object.keys(a.jobs) as Array<keyof BatchCounts['jobs']>) {
    if (a.jobs[key] !== b.jobs[key]) return false;
  }
  for (const key of Object.keys(a.downloads) as Array<keyof BatchCounts['downloads']>) {
    if (a.downloads[key] !== b.downloads[key]) return false;
  }
  // (what was spent moves with the counts; only a progress event carries it)
  return b.spent === undefined || a.spent?.units === b.spent.units;
}

/** A batch's counts as an event says them: the list and its detail follow at once. */
function setCounts(data: Data, id: number, counts: BatchCounts): void {
  const { queries, refresher } = data;
  const withCounts = <T extends BatchSummary>(batch: T): T =>
    sameCounts(batch, counts) ? batch : { ...batch, ...counts, jobCount: jobTotal(counts.jobs) };
  const pages = queries.getQueryData<BatchPages>(keys.batches());
  if (pages) {
    const listed = pages.pages.some((page) => page.items.some((b) => b.id === id));
    if (listed) {
      queries.setQueryData<BatchPages>(keys.batches(), {
        ...pages,
        pages: pages.pages.map((page) => ({
          ...page,
          items: page.items.map((b) => (b.id === id ? withCounts(b) : b)),
        })),
      });
    } else if (id > Math.max(0, ...pages.pages.flatMap((p) => p.items.map((b) => b.id)))) {
      refresher.refresh(areas.batchList); // a batch newer than the list
    }
  }
  const detail = queries.getQueryData<BatchDetail>(keys.batch(id));
  if (detail && !sameCounts(detail, counts)) {
    const failing =
      detail.jobs.failed !== counts.jobs.failed ||
      detail.downloads.failed !== counts.downloads.failed;
    queries.setQueryData<BatchDetail>(keys.batch(id), withCounts(detail));
    if (failing) {
      // failures by kind and expired links come with the detail; the groups' own counts beside
      refresher.refreshKey(keys.batch(id));
      refresher.refresh(areas.failedSamples, (q) => batchOfKey(q) === id);
      refresher.refresh(areas.imageCounts, (q) => imageQueryOf(q)?.batchId === id);
    } else refresher.refreshAtMost(keys.batch(id), DETAIL_GAP_MS);
  }
  // new jobs (a top-up) join the list of every state
  const all = queries.getQueryData<IdList>(keys.jobIds(id));
  if (all && all.complete && all.total !== jobTotal(counts.jobs)) {
    refresher.refreshKey(keys.jobIds(id));
  }
}

function jobsChanged(
  data: Data,
  changes: ReadonlyArray<readonly [number, JobState]>,
  batches: readonly number[],
): void {
  const { queries, refresher } = data;
  const cache = queries.getQueryCache();
  const stateOf = new Map(changes);
  const batchOf = new Map<number, number>();
  // the cached rows (a few screenfuls), not the changes (thousands a second), are walked
  for (const query of cache.findAll({ queryKey: areas.jobs })) {
    const job = query.state.data as JobSummary | null | undefined;
    const state = job ? stateOf.get(job.id) : undefined;
    if (!job || state === undefined) continue;
    batchOf.set(job.id, job.batchId);
    // the state at once; tries and the error come with the fetch that follows
    if (job.state !== state) queries.setQueryData(query.queryKey, { ...job, state });
    refresher.refreshKey(query.queryKey);
  }
  for (const prefix of [areas.jobDetails, areas.attempts]) {
    refresher.refresh(prefix, (q) => {
      const input = q.queryKey[2] as { id?: number; jobId?: number };
      return stateOf.has(input.id ?? input.jobId ?? -1);
    });
  }
  // lists by state: a job that left one is taken out; one that came in needs the list again
  for (const query of cache.findAll({ queryKey: areas.jobLists })) {
    const { batchId, states } = query.queryKey[2] as { batchId: number; states: JobState[] | null };
    const list = query.state.data as IdList | undefined;
    if (!states || !list || !batches.includes(batchId)) continue;
    const listed = new Set(list.ids);
    const left = new Set<number>();
    let entered = false;
    for (const [id, state] of changes) {
      const known = batchOf.get(id);
      if (known !== undefined && known !== batchId) continue;
      const belongs = states.includes(state);
      if (listed.has(id) && !belongs) left.add(id);
      else if (!listed.has(id) && belongs) entered = true;
    }
    if (left.size > 0) {
      queries.setQueryData<IdList>(query.queryKey, {
        ...list,
        ids: list.ids.filter((id) => !left.has(id)),
        total: list.total - left.size,
      });
    }
    if (entered) refresher.refreshKey(query.queryKey);
  }
  refresher.refresh(areas.actionable, (q) => batches.includes(batchOfKey(q) ?? -1));
}

function imagesDeleted(data: Data, ids: readonly number[]): void {
  const { queries, refresher } = data;
  const gone = new Set(ids);
  for (const query of queries.getQueryCache().findAll({ queryKey: areas.imageLists })) {
    const list = query.state.data as GalleryList | undefined;
    if (!list || !list.ids.some((id) => gone.has(id))) continue;
    const kept = list.ids.filter((id) => !gone.has(id));
    queries.setQueryData<GalleryList>(query.queryKey, {
      ...list,
      ids: kept,
      total: list.total - (list.ids.length - kept.length),
    });
    // group counts are out of date
    if (list.groups) refresher.refreshKey(query.queryKey);
  }
  for (const id of ids) {
    queries.removeQueries({ queryKey: keys.image(id), exact: true });
    queries.removeQueries({ queryKey: keys.imageDetail(id), exact: true });
  }
  data.refresher.refresh(areas.imageCounts, countsEdits);
}

/** A count of edits (an image's edits in its details): images written or deleted change it. */
function countsEdits(query: Query): boolean {
  const filter = imageQueryOf(query);
  return filter?.edits !== undefined || filter?.editedFrom !== undefined;
}

function imagesChanged(data: Data, { ids, batches }: ApiEventOf<'images.changed'>['payload']) {
  const { refresher } = data;
  if (ids.length > 0) {
    for (const id of ids) {
      refresher.refreshKey(keys.image(id));
      refresher.refreshKey(keys.imageDetail(id));
    }
  } else {
    const touched = (q: Query) => batches.length === 0 || inBatches(q, batches);
    refresher.refresh(areas.images, touched);
    refresher.refresh(areas.imageDetails, touched);
  }
  // a favourite, a failed or waiting download: only lists that filter on those change
  refresher.refresh(areas.imageLists, (q) => {
    const query = imageQueryOf(q);
    return ids.length === 0 || query === null || !plainlyWritten(query);
  });
  refresher.refresh(areas.imageCounts);
}

/** A deleted batch takes its jobs and images with it. */
function forgetBatches(data: Data, deleted: readonly number[]): void {
  const { queries, refresher } = data;
  for (const id of deleted) {
    queries.removeQueries({ queryKey: keys.batch(id), exact: true });
    queries.removeQueries({ queryKey: ['jobs', 'ids', { batchId: id }] });
  }
  const gone = (q: Query) => inBatches(q, deleted);
  queries.removeQueries({ queryKey: areas.jobs, predicate: gone });
  queries.removeQueries({ queryKey: areas.images, predicate: gone });
  refresher.refresh(areas.imageLists);
}

/** Whether a cached summary or detail belongs to one of `batches`. */
function inBatches(query: Query, batches: readonly number[]): boolean {
  const value = query.state.data as { batchId?: number } | null | undefined;
  return value?.batchId !== undefined && batches.includes(value.batchId);
}

function batchOfKey(query: Query): number | null {
  const input = query.queryKey[2] as { batchId?: number } | undefined;
  return input?.batchId ?? null;
}

function imageQueryOf(query: Query): ImageQueryInput | null {
  return (query.queryKey[2] as { query?: ImageQueryInput } | undefined)?.query ?? null;
}

/** A list of written images, not filtered by favourite or download: a favourite or a failed
 * download does not change it. */
function plainlyWritten(query: ImageQueryInput): boolean {
  const states = query.downloadStates ?? ['done'];
  return !query.favorite && states.length === 1 && states[0] === 'done';
}
