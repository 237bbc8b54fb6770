import type { FailureKind } from '../../../shared/jobs/outcomes.ts';
import type { DownloadCounts } from '../store/image-repository.ts';
import type { PartialSuccessCounts } from '../store/job-queries.ts';
import type { StateCounts } from '../store/job-repository.ts';
import type { Store } from '../store/store.ts';

/** Everything counted about a batch (or the whole data folder): what status and summaries say. */
export interface WorkCounts {
  jobs: StateCounts;
  downloads: DownloadCounts;
  /** Of `downloads.failed`: the link had expired (a retry of the download asks it again). */
  expiredLinks: number;
  /** Of `downloads.failed`: what the link gave was not an image. */
  notImages: number;
  /** Failed prompts by why they failed. */
  failures: Partial<Record<FailureKind, number>>;
  /** Prompts that returned fewer images than asked, not topped up yet. */
  partial: PartialSuccessCounts;
  /** Of the jobs, the top-ups (requests for a partial success's missing images). */
  topUps: number;
  /** Of the jobs, the ones that make videos: what the results are called. */
  videos: number;
}

/** All from counters and short index scans: cheap for a batch of 100,000. */
export function workCounts(store: Store, batchId?: number): WorkCounts {
  return {
    jobs: store.jobs.counts(batchId),
    downloads: store.images.counts(batchId),
    expiredLinks: store.images.countExpiredLinks(batchId),
    notImages: store.images.countNotImages(batchId),
    failures: store.pages.failureCounts(batchId),
    partial: store.jobs.partialSuccesses(batchId),
    topUps: store.jobs.countTopUps(batchId),
    videos: store.jobs.videoCount(batchId),
  };
}
