import type { Store } from '../store/store.ts';
import type { HubFeed } from './event-hub.ts';
import type { SettingsValue } from './settings-store.ts';
import { totalsView } from './spend.ts';
import type { QueueSession } from './queue-session.ts';
import { idleProgress, liveProgress } from './progress-view.ts';
import { videoStatus } from './views.ts';

/** The event hub's reads: committed rows from the store, live figures from the engine. */
export function hubFeed(
  store: Store,
  session: QueueSession,
  settings: () => SettingsValue,
  now: () => number,
): HubFeed {
  const thumbnails = () => settings().thumbnails;
  return {
    lastTransitionId: () => store.pages.lastTransitionId(),
    transitionsSince: (afterId, limit, upTo) => store.pages.transitionsSince(afterId, limit, upTo),
    lastImageMark: () => store.gallery.lastWritten(),
    imagesWrittenSince(after, limit) {
      const withThumbs = thumbnails();
      return store.gallery.writtenSince(after, limit).map((row) => ({
        ...row,
        // the thumbnail is asked for by the image's own path, under the thumbnail route
        thumbRelPath: withThumbs ? row.relPath : null,
      }));
    },
    batchCounts(ids) {
      const values = settings();
      return ids.map((id) => ({
        id,
        jobs: store.jobs.counts(id),
        downloads: store.images.counts(id),
        spent: totalsView(store.spend.totals({ batchId: id }), values),
      }));
    },
    openBatches: () => store.pages.openBatches(),
    finishedBatch(id) {
      const batch = store.batches.get(id);
      if (!batch) return null;
      const jobs = store.jobs.counts(id);
      const downloads = store.images.counts(id);
      const left =
        jobs.queued + jobs.running + jobs.retrying + downloads.pending + downloads.downloading;
      if (left > 0) return null;
      return {
        batchId: id,
        name: batch.name,
        jobs,
        failures: store.pages.failureCounts(id),
        downloads,
        partial: store.jobs.partialSuccesses(id).jobs,
      };
    },
    progress() {
      const engine = session.engine;
      const sources = { store, settings: settings(), now: now() };
      return engine ? liveProgress(engine.progress(), sources) : idleProgress(sources);
    },
    videos(jobIds) {
      const at = now();
      return store.pages
        .jobsByIds(jobIds)
        .filter((job) => job.kind === 'video')
        .map((job) => ({
          jobId: job.id,
          batchId: job.batchId,
          state: job.state,
          ...videoStatus(job, at),
        }));
    },
    runningVideos: () =>
      store.jobs
        .listRunning()
        .filter((job) => job.kind === 'video')
        .map((job) => job.id),
  };
}
