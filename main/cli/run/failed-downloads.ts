import type { Store } from '../../core/store/store.ts';
import { NOT_AN_IMAGE_CODE, URL_EXPIRED_CODE } from '../../core/store/image-repository.ts';

/** A failed download worth showing by name: which image of which prompt, and why. */
export interface FailedDownloadExample {
  position: number;
  prompt: string;
  image: number;
  reason: string | null;
}

/**
 * The first failed downloads of a batch (or all), those lost to an expired link left out
 * (the summary lists them apart). Read from the failed downloads' own index, as
 * failure-counts.ts reads the jobs: the repositories have no such list.
 */
export function failedDownloadExamples(
  store: Store,
  scope: { batchId?: number; limit: number },
): FailedDownloadExample[] {
  return store.db
    .prepare(
      `SELECT j.position AS position, j.prompt AS prompt, i.idx AS image,
         i.failure_reason AS reason
       FROM images AS i JOIN jobs AS j ON j.id = i.job_id
       WHERE i.download_state = 'failed'
         AND NOT (i.failure_code IS '${URL_EXPIRED_CODE}' AND i.has_payload = 0)
         AND (@batchId IS NULL OR j.batch_id = @batchId)
       ORDER BY i.id LIMIT @limit`,
    )
    .all({ batchId: scope.batchId ?? null, limit: scope.limit }) as FailedDownloadExample[];
}

/** Failed downloads whose body was not an image (also counted in the failed downloads). */
export function countNotImages(store: Store, batchId?: number): number {
  const row = store.db
    .prepare(
      `SELECT count(*) AS n FROM images AS i
       WHERE i.download_state = 'failed' AND i.failure_code = '${NOT_AN_IMAGE_CODE}'
         AND (@batchId IS NULL OR (SELECT batch_id FROM jobs WHERE id = i.job_id) = @batchId)`,
    )
    .get({ batchId: batchId ?? null }) as { n: number };
  return row.n;
}
