import type { ApiEvent } from '../../../shared/api/events.ts';
import { jobTotal, sameCounts } from './counts.ts';
import { keyBatch } from './jobs-key.ts';
import { without } from './without.ts';
import type { JobState } from '../../../shared/jobs/states.ts';
import type {
  AppState,
  BatchCounts,
  BatchSummary,
  FinishedNotice,
  JobIdList,
  JobSummary,
} from './state.ts';

/** Finished-batch notices kept for toasts; older ones drop off. */
export const MAX_NOTICES = 20;

/**
 * What a run of events changes in the state, as one patch (the pump applies it with a single
 * `set`). Pure: the state is never mutated, and a Map or Set is copied only when something in
 * it changes, so selectors of untouched parts keep their values and do not re-render.
 */
export function applyEvents(state: AppState, events: readonly ApiEvent[]): Partial<AppState> {
  const draft = new Draft(state);
  for (const event of events) draft.apply(event);
  return draft.patch;
}

class Draft {
  readonly patch: Partial<AppState> = {};
  private batches: Map<number, BatchSummary> | null = null;
  private late: Map<number, BatchCounts> | null = null;
  private jobs: Map<number, JobSummary> | null = null;
  private pending: Map<number, JobState | null> | null = null;
  private lists: Map<string, JobIdList> | null = null;
  private finished: Set<number> | null = null;
  private readonly state: AppState;
  private readonly newestBatch: number;

  constructor(state: AppState) {
    this.state = state;
    this.newestBatch = state.batchIds.reduce((a, b) => Math.max(a, b), 0);
  }

  apply(event: ApiEvent): void {
    switch (event.type) {
      case 'progress': {
        const { paused, batches, ...progress } = event.payload;
        this.patch.progress = progress;
        this.patch.paused = paused;
        for (const { id, jobs, downloads } of batches) this.setCounts(id, { jobs, downloads });
        return;
      }
      case 'jobs.changed':
        this.changeJobs(event.payload.changes, event.payload.batches);
        return;
      case 'images.written':
        this.written(event.payload.images.map((image) => image.id));
        return;
      case 'images.deleted':
        this.deleted(event.payload.ids);
        return;
      case 'export.progress': {
        const exportsNow = this.patch.exportsById ?? this.state.exportsById;
        this.patch.exportsById = new Map(exportsNow).set(event.payload.id, event.payload);
        return;
      }
      case 'queue.paused':
        this.patch.paused = event.payload;
        return;
      case 'queue.resumed':
        this.patch.paused = null;
        return;
      case 'batch.finished':
        this.finish(event.payload);
        return;
      case 'limits.changed':
        this.patch.limits = event.payload;
        return;
      case 'settings.changed':
        this.patch.settingsStale = true;
        return;
      case 'key.changed':
        this.patch.keyStatus = event.payload;
        return;
      case 'resync':
        this.patch.resyncs = (this.patch.resyncs ?? this.state.resyncs) + 1;
        this.patch.resyncReason = event.payload.reason;
        this.patch.batchesStale = true;
        this.patch.settingsStale = true;
        this.patch.galleryStale = true;
        this.staleLists(() => true);
        return;
    }
  }

  private setCounts(id: number, counts: BatchCounts): void {
    const lateNow = this.patch.batchCountsLate ?? this.state.batchCountsLate;
    if (lateNow) {
      this.late ??= new Map(lateNow);
      this.late.set(id, counts);
      this.patch.batchCountsLate = this.late;
    }
    const batchesNow = this.patch.batches ?? this.state.batches;
    const batch = batchesNow.get(id);
    if (!batch) {
      // a batch newer than the list was created (here or by another client)
      if (id > this.newestBatch) this.patch.batchesStale = true;
      return;
    }
    if (sameCounts(batch.jobs, counts.jobs) && sameCounts(batch.downloads, counts.downloads)) {
      return;
    }
    this.batches ??= new Map(batchesNow);
    this.batches.set(id, { ...batch, ...counts, jobCount: jobTotal(counts.jobs) });
    this.patch.batches = this.batches;
  }

  private changeJobs(
    changes: ReadonlyArray<readonly [number, JobState]>,
    batches: readonly number[],
  ): void {
    for (const [id, to] of changes) {
      const jobsNow = this.patch.jobsById ?? this.state.jobsById;
      const job = jobsNow.get(id);
      if (job) {
        if (job.state === to) continue;
        this.jobs ??= new Map(jobsNow);
        this.jobs.set(id, { ...job, state: to });
        this.patch.jobsById = this.jobs;
        continue;
      }
      const pendingNow = this.patch.jobsPending ?? this.state.jobsPending;
      if (pendingNow.has(id) && pendingNow.get(id) !== to) {
        this.pending ??= new Map(pendingNow);
        this.pending.set(id, to);
        this.patch.jobsPending = this.pending;
      }
    }
    // a list filtered by state may have gained or lost these jobs
    const touched = new Set(batches);
    this.staleLists((key) => {
      const { batchId, filtered } = keyBatch(key);
      return filtered && touched.has(batchId);
    });
  }

  private staleLists(matches: (key: string) => boolean): void {
    const listsNow = this.patch.jobIdsByKey ?? this.state.jobIdsByKey;
    for (const [key, list] of listsNow) {
      if (list.stale || !matches(key)) continue;
      this.lists ??= new Map(listsNow);
      this.lists.set(key, { ...list, stale: true });
      this.patch.jobIdsByKey = this.lists;
    }
  }

  /** New images may join the gallery's list; a retried one shown as failed is written now. */
  private written(ids: readonly number[]): void {
    this.patch.galleryFresh = (this.patch.galleryFresh ?? this.state.galleryFresh) + ids.length;
    const imagesNow = this.patch.galleryImages ?? this.state.galleryImages;
    const images = without(imagesNow, ids);
    if (images === imagesNow) return;
    this.patch.galleryImages = images;
    this.patch.galleryStale = true;
  }

  private deleted(ids: readonly number[]): void {
    const gone = new Set(ids);
    const listNow = this.patch.galleryIds ?? this.state.galleryIds;
    const list = listNow.filter((id) => !gone.has(id));
    if (list.length !== listNow.length) {
      this.patch.galleryIds = list;
      const total = this.patch.galleryTotal ?? this.state.galleryTotal;
      if (total !== null) this.patch.galleryTotal = total - (listNow.length - list.length);
      // group counts are out of date: the list reloads them
      if (this.state.galleryGroups) this.patch.galleryStale = true;
    }
    const imagesNow = this.patch.galleryImages ?? this.state.galleryImages;
    const images = without(imagesNow, ids);
    if (images !== imagesNow) this.patch.galleryImages = images;
    const selection = this.patch.gallerySelection ?? this.state.gallerySelection;
    const selected = without(selection.selected, ids);
    if (selected !== selection.selected) {
      const anchor =
        selection.anchor !== null && gone.has(selection.anchor) ? null : selection.anchor;
      this.patch.gallerySelection = { selected, anchor };
    }
  }

  private finish(notice: FinishedNotice): void {
    this.setCounts(notice.batchId, { jobs: notice.jobs, downloads: notice.downloads });
    const finishedNow = this.patch.finishedBatches ?? this.state.finishedBatches;
    if (!finishedNow.has(notice.batchId)) {
      this.finished ??= new Set(finishedNow);
      this.finished.add(notice.batchId);
      this.patch.finishedBatches = this.finished;
    }
    const notices = (this.patch.finishedNotices ?? this.state.finishedNotices).filter(
      (n) => n.batchId !== notice.batchId,
    );
    notices.push(notice);
    this.patch.finishedNotices = notices.slice(-MAX_NOTICES);
  }
}
