import type { QueueControls } from './queue-controls.ts';
import type { Store } from '../store/store.ts';

export interface RetryChoice {
  batchId?: number;
  /** Failed jobs whose work certainly did not happen (and images whose link gave no image). */
  failed: boolean;
  /** Jobs whose outcome is uncertain: they may have been charged ("retry anyway"). */
  uncertain: boolean;
  /** Failed downloads, from the stored link or bytes: never a generation request. */
  downloads: boolean;
  /** Ask again for the images a partial success did not return. */
  partial: boolean;
}

export interface RetryReport {
  failed: number;
  uncertain: number;
  downloads: number;
  /** Of the downloads, those whose link had expired (asked again: some stores answer 404 first). */
  expiredLinks: number;
  /** New paid requests for the images a partial success did not return. */
  topUps: { prompts: number; images: number };
  /** New paid requests for the images whose link gave something that is not an image. */
  regenerated: { prompts: number; images: number };
}

/** Pages through the jobs, so a huge batch is never held in memory at once. */
const TOP_UP_PAGE = 500;

/** What `atelier retry` and the Queue screen's retry do: each kind of work queued again. */
export function retryWork(controls: QueueControls, store: Store, what: RetryChoice): RetryReport {
  const scope = what.batchId === undefined ? {} : { batchId: what.batchId };
  const report: RetryReport = {
    failed: 0,
    uncertain: 0,
    downloads: 0,
    expiredLinks: 0,
    topUps: { prompts: 0, images: 0 },
    regenerated: { prompts: 0, images: 0 },
  };
  if (what.failed) {
    report.failed = controls.retryFailed(scope);
    report.regenerated = controls.regenerateNotImages(scope);
  }
  if (what.uncertain) report.uncertain = controls.retryFailed({ ...scope, anyway: true });
  if (what.partial) report.topUps = topUpPartialSuccesses(controls, store, scope);
  if (what.downloads) {
    // counted before they are queued: afterwards they are pending, no longer failed
    report.expiredLinks = store.images.countExpiredLinks(what.batchId);
    report.downloads = controls.retryDownloads(what.batchId);
  }
  return report;
}

/** One top-up job for each partial success not topped up yet; returns what they ask for. */
export function topUpPartialSuccesses(
  controls: QueueControls,
  store: Store,
  scope: { batchId?: number },
): { prompts: number; images: number } {
  const asked = { prompts: 0, images: 0 };
  let afterId = 0;
  for (;;) {
    const page = store.jobs.listPartialSuccesses({ ...scope, afterId, limit: TOP_UP_PAGE });
    if (page.length === 0) return asked;
    for (const job of page) {
      asked.images += controls.topUp(job.id).n;
      asked.prompts += 1;
    }
    afterId = page.at(-1)!.id;
  }
}
