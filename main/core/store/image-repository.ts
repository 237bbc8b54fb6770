import type { Database } from 'better-sqlite3';
import {
  DOWNLOAD_STATES,
  assertDownloadTransition,
  type DownloadState,
} from '../../../shared/jobs/downloads.ts';
import { pathKey } from '../library/naming.ts';
import { toImage, type Image } from './rows.ts';
import { transact } from './transaction.ts';
import { oneRow } from './one-row.ts';
import { sqlOn } from './prepare-on-use.ts';

/** One image of a gateway answer: a temporary URL, base64 bytes, or both. */
export interface ImageResult {
  /** 1-based image number within the prompt. */
  idx: number;
  url?: string | null;
  b64?: string | Buffer | null;
  revisedPrompt?: string | null;
  /** The seed the gateway said it used for this image, where its answer says. */
  seed?: number | null;
  /**
   * Its library-relative name, reserved with the row (only with `downloading`): the caller
   * chose one that isPathTaken said was free, in the same transaction.
   */
  relPath?: string | null;
}

export interface DownloadedFile {
  bytes: number;
  sha256: string;
  width: number;
  height: number;
  format: string;
  now: number;
}

export type DownloadCounts = Record<DownloadState, number>;

/** The failure code of a download whose temporary link had expired. */
export const URL_EXPIRED_CODE = 'url-expired';

/** The failure code of an image whose bytes are not an image Atelier can use. */
export const NOT_AN_IMAGE_CODE = 'not-an-image';

/**
 * A failed download whose link answered "expired", with no stored bytes to stand in (a
 * download prefers the bytes, so with them it would not have needed the link): lost unless
 * the link answers when asked again, or the image is generated again.
 */
const lostToExpiredLink = (prefix: string) =>
  // (IS, not =: a failure without a code must not turn the whole test NULL)
  `${prefix}failure_code IS '${URL_EXPIRED_CODE}' AND ${prefix}has_payload = 0`;

/**
 * The failed downloads of a batch or all whose link had expired. Read from the failed downloads' own index: a
 * short scan, however many images succeeded.
 */
const EXPIRED_LINKS_IN_SCOPE = `i.download_state = 'failed' AND ${lostToExpiredLink('i.')}
  AND (@batchId IS NULL OR (SELECT batch_id FROM jobs WHERE id = i.job_id) = @batchId)`;

type StateCount = { state: DownloadState; n: number };

/**
 * Failed downloads chosen by image or by job, queued again from the stored link or bytes.
 * Those whose link gave something that is not an image are left out: the same link would give
 * the same again. Each row says whether its link had expired.
 */
const retryChosen = (column: 'id' | 'job_id') =>
  `UPDATE images SET download_state = 'pending', next_download_at = 0, download_tries = 0,
     updated_at = @now
   WHERE download_state = 'failed' AND ${column} IN (SELECT value FROM json_each(@ids))
     AND failure_code IS NOT '${NOT_AN_IMAGE_CODE}'
   RETURNING id, job_id AS jobId, batch_id AS batchId, ${lostToExpiredLink('')} AS expired`;

/** A failed download worth showing by name: which image of which prompt, and why. */
export interface FailedDownloadExample {
  position: number;
  prompt: string;
  image: number;
  reason: string | null;
}

/** Every statement of ImageRepository (prepared on first use: prepare-on-use.ts). */
function imageStatements(db: Database) {
  const sql = sqlOn(db);
  return {
    insert: sql<Record<string, unknown>>(
      // (the job's batch, model and size copied in: the gallery filters on them without a join)
      `INSERT INTO images (job_id, batch_id, model, size, idx, source_url, has_payload,
         revised_prompt, download_state, download_tries, rel_path, path_key, created_at,
         updated_at, seed)
       SELECT j.id, j.batch_id, j.model, j.size, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
       FROM jobs AS j WHERE j.id = ? RETURNING *`,
    ),
    insertPayload: sql('INSERT INTO image_payloads (image_id, bytes) VALUES (?, ?)'),
    get: sql<Record<string, unknown>>('SELECT * FROM images WHERE id = ?'),
    forJob: sql<Record<string, unknown>>('SELECT * FROM images WHERE job_id = ? ORDER BY idx'),
    // (`?+0`: see SCHEDULER_QUERIES)
    due: sql<{ id: number }>(
      `SELECT id FROM images WHERE download_state = 'pending' AND next_download_at <= ?
       ORDER BY next_download_at, id LIMIT ?+0`,
    ),
    nextDue: sql<{ at: number | null }>(
      `SELECT min(next_download_at) AS at FROM images WHERE download_state = 'pending'`,
    ),
    start: sql<Record<string, unknown>>(
      `UPDATE images SET download_state = 'downloading', download_tries = download_tries + 1,
         updated_at = ?
       WHERE id = ? AND download_state = 'pending' RETURNING *`,
    ),
    payload: sql<{ bytes: Buffer }>('SELECT bytes FROM image_payloads WHERE image_id = ?'),
    reserve: sql('UPDATE images SET rel_path = ?, path_key = ?, updated_at = ? WHERE id = ?'),
    release: sql(
      `UPDATE images SET rel_path = NULL, path_key = NULL, updated_at = ?
       WHERE id = ? AND download_state <> 'done'`,
    ),
    pathTaken: sql('SELECT 1 FROM images WHERE path_key = ?'),
    done: sql(
      `UPDATE images SET download_state = 'done', bytes = @bytes, sha256 = @sha256,
         width = @width, height = @height, format = @format, has_payload = 0,
         failure_code = NULL, failure_reason = NULL, updated_at = @now, done_at = @now
       WHERE id = @id AND download_state = 'downloading' AND rel_path IS NOT NULL`,
    ),
    dropPayload: sql('DELETE FROM image_payloads WHERE image_id = ?'),
    failed: sql(
      `UPDATE images SET download_state = @state, next_download_at = @retryAt,
         failure_code = @code, failure_reason = @reason, updated_at = @now,
         download_tries = max(download_tries - @refund, 0)
       WHERE id = @id AND download_state = 'downloading'`,
    ),
    retryFailed: sql(
      `UPDATE images SET download_state = 'pending', next_download_at = 0, download_tries = 0,
         updated_at = @now
       WHERE download_state = 'failed'
         AND (@batchId IS NULL OR job_id IN (SELECT id FROM jobs WHERE batch_id = @batchId))
         AND (@codes IS NULL OR failure_code IN (SELECT value FROM json_each(@codes)))`,
    ),
    retryFailedIds: sql<RetriedRow>(retryChosen('id')),
    retryFailedOfJobs: sql<RetriedRow>(retryChosen('job_id')),
    resume: sql(
      `UPDATE images SET download_state = 'pending', next_download_at = 0, updated_at = ?
       WHERE download_state = 'downloading'`,
    ),
    notImages: sql<{ n: number }>(
      `SELECT count(*) AS n FROM images AS i
       WHERE i.download_state = 'failed' AND i.failure_code = '${NOT_AN_IMAGE_CODE}'
         AND (@batchId IS NULL OR i.batch_id = @batchId)`,
    ),
    failedExamples: sql<FailedDownloadExample>(
      `SELECT j.position AS position, j.prompt AS prompt, i.idx AS image,
         i.failure_reason AS reason
       FROM images AS i JOIN jobs AS j ON j.id = i.job_id
       WHERE i.download_state = 'failed' AND NOT (${lostToExpiredLink('i.')})
         AND (@batchId IS NULL OR i.batch_id = @batchId)
       ORDER BY i.id LIMIT @limit`,
    ),
    failedList: sql<Record<string, unknown>>(
      `SELECT * FROM images WHERE download_state = 'failed' AND id > ? ORDER BY id LIMIT ?`,
    ),
    expiredLinks: sql<{ n: number }>(
      `SELECT count(*) AS n FROM images AS i WHERE ${EXPIRED_LINKS_IN_SCOPE}`,
    ),
    expiredLinksList: sql<Record<string, unknown>>(
      `SELECT * FROM images AS i WHERE ${EXPIRED_LINKS_IN_SCOPE} ORDER BY i.id LIMIT @limit`,
    ),
    // kept by triggers (schema v2): no scan of the images, however many
    countsAll: sql<StateCount>(
      'SELECT state, sum(n) AS n FROM batch_download_counts GROUP BY state',
    ),
    countsBatch: sql<StateCount>('SELECT state, n FROM batch_download_counts WHERE batch_id = ?'),
    stateOf: sql<{ download_state: DownloadState }>(
      'SELECT download_state FROM images WHERE id = ?',
    ),
  };
}

type ImageStatements = ReturnType<typeof imageStatements>;

/**
 * Images and their downloads. A result is stored (URL and bytes) before anything is
 * downloaded, so a failed download is retried from here, never by generating again.
 */
export class ImageRepository {
  private readonly db: Database;
  private readonly s: ImageStatements;

  constructor(db: Database) {
    this.db = db;
    this.s = imageStatements(db);
  }

  /**
   * Stores a job's images with their URLs and decoded bytes, all `pending` — or already
   * `downloading` when `downloading` is set (the engine writes them from the bytes in hand at
   * once). Call it in the same transaction as the job's success, so a paid result is never lost.
   */
  addResults(
    jobId: number,
    results: readonly ImageResult[],
    now: number,
    options: { downloading?: boolean } = {},
  ): Image[] {
    const state: DownloadState = options.downloading ? 'downloading' : 'pending';
    return transact(this.db, () =>
      results.map((result) => {
        const bytes =
          typeof result.b64 === 'string' ? Buffer.from(result.b64, 'base64') : result.b64;
        if (!result.url && !bytes?.length) {
          throw new Error(
            `Image ${result.idx} of job ${jobId} has neither a URL nor base64 data: the answer ` +
              `holds nothing to download.`,
          );
        }
        // (a name goes only with a download under way: a pending image is named when claimed)
        const relPath = state === 'downloading' ? (result.relPath ?? null) : null;
        const image = toImage(
          oneRow(
            this.s.insert,
            result.idx,
            result.url ?? null,
            bytes?.length ? 1 : 0,
            result.revisedPrompt ?? null,
            state,
            state === 'downloading' ? 1 : 0,
            relPath,
            relPath === null ? null : pathKey(relPath),
            now,
            now,
            result.seed ?? null,
            jobId,
          ),
        );
        if (bytes?.length) this.s.insertPayload.run(image.id, bytes);
        return image;
      }),
    );
  }

  get(id: number): Image | undefined {
    const row = this.s.get.get(id);
    return row && toImage(row);
  }

  listForJob(jobId: number): Image[] {
    return this.s.forJob.all(jobId).map(toImage);
  }

  /** Moves up to `limit` due pending downloads to `downloading` and returns them. */
  claimDownloads(limit: number, now: number): Image[] {
    return transact(
      this.db,
      () => this.s.due.all(now, limit).map(({ id }) => toImage(oneRow(this.s.start, now, id))),
      'immediate',
    );
  }

  /** When the earliest pending download falls due (null: none pends). */
  nextDownloadAt(): number | null {
    return oneRow(this.s.nextDue).at;
  }

  /** The stored bytes of a base64 result, if any (dropped once the file is on disk). */
  payload(id: number): Buffer | undefined {
    return this.s.payload.get(id)?.bytes;
  }

  /**
   * Claims a library-relative path for an image before writing it. False when another
   * image holds the same name (compared as the filesystem would, case-insensitively):
   * try the next of naming's nameCandidates.
   */
  reservePath(id: number, relPath: string, now: number): boolean {
    try {
      const { changes } = this.s.reserve.run(relPath, pathKey(relPath), now, id);
      if (changes !== 1) throw new Error(`Image ${id} does not exist.`);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return false;
      throw error;
    }
  }

  /**
   * Gives up an image's reserved path (a download that will not write it), so the name is
   * free for another image. False when the image is done: its file is on disk under that name.
   */
  releasePath(id: number, now: number): boolean {
    if (this.s.release.run(now, id).changes === 1) return true;
    if (!this.get(id)) throw new Error(`Image ${id} does not exist.`);
    return false;
  }

  isPathTaken(relPath: string): boolean {
    return Boolean(this.s.pathTaken.get(pathKey(relPath)));
  }

  /** downloading → done, once the file is fsynced and renamed into place; drops the bytes. */
  markDone(id: number, file: DownloadedFile): void {
    transact(this.db, () => {
      // The update checks the state itself; the read that explains a refusal runs only then.
      if (this.s.done.run({ id, ...file }).changes !== 1) {
        this.assertMove(id, 'done');
        throw new Error(`Image ${id} has no reserved path: reserve one before marking it done.`);
      }
      this.s.dropPayload.run(id);
    });
  }

  /**
   * downloading → pending again at `retryAt` (backoff), or → failed with the reason when no
   * retry is left (retryAt null). `code` names the cause, e.g. 'url-expired', 'disk-full'.
   */
  markDownloadFailed(
    id: number,
    failure: {
      code: string;
      reason: string;
      retryAt: number | null;
      now: number;
      /** Interrupted, not failed: the try does not count against the retry budget. */
      refundTry?: boolean;
    },
  ): void {
    const state: DownloadState = failure.retryAt === null ? 'failed' : 'pending';
    transact(this.db, () => {
      this.assertMove(id, state);
      this.s.failed.run({
        id,
        state,
        retryAt: failure.retryAt ?? 0,
        code: failure.code,
        reason: failure.reason,
        now: failure.now,
        refund: failure.refundTry ? 1 : 0,
      });
    });
  }

  /**
   * "Retry downloads": failed → pending, for one batch or all (only those failed with one of
   * `codes`, when given). Returns how many. Links that answered "expired" are asked again too:
   * a GET costs nothing, and some stores answer 404 for a while before a file appears.
   */
  retryFailedDownloads(now: number, batchId?: number, codes?: readonly string[]): number {
    return this.s.retryFailed.run({
      now,
      batchId: batchId ?? null,
      codes: codes ? JSON.stringify(codes) : null,
    }).changes;
  }

  /** After a crash: downloads cut short start again. Returns how many. */
  /**
   * These failed downloads again, from the stored link or bytes (never a new generation).
   * Those whose link gave something that is not an image are left out: the same link would
   * give the same again (only generating again helps). Returns how many were queued, and how
   * many of them had an expired link (asked again: some stores answer 404 for a while).
   */
  retryFailedDownloadsById(ids: readonly number[], now: number): RetriedDownloads {
    return retried(this.s.retryFailedIds.all({ ids: JSON.stringify(ids), now }));
  }

  /** Failed downloads whose body was not an image (also counted in the failed downloads). */
  countNotImages(batchId?: number): number {
    return this.s.notImages.get({ batchId: batchId ?? null })!.n;
  }

  /**
   * The first failed downloads of a batch (or all), those lost to an expired link left out
   * (they are listed apart). Read from the failed downloads' own index: a short scan.
   */
  failedDownloadExamples(scope: { batchId?: number; limit: number }): FailedDownloadExample[] {
    return this.s.failedExamples.all({ batchId: scope.batchId ?? null, limit: scope.limit });
  }

  /** The same for every failed download of these jobs (a selection in the Queue screen). */
  retryFailedDownloadsOfJobs(jobIds: readonly number[], now: number): RetriedDownloads {
    return retried(this.s.retryFailedOfJobs.all({ ids: JSON.stringify(jobIds), now }));
  }

  resumeInterrupted(now: number): number {
    return this.s.resume.run(now).changes;
  }

  listFailed(afterId = 0, limit = 100): Image[] {
    return this.s.failedList.all(afterId, limit).map(toImage);
  }

  /**
   * Failed downloads whose link had expired and that hold no bytes to write instead, in a
   * batch or all batches (retryFailedDownloads asks their links again like any other).
   */
  countExpiredLinks(batchId?: number): number {
    return oneRow(this.s.expiredLinks, { batchId: batchId ?? null }).n;
  }

  /** The first `limit` of the images countExpiredLinks counts, oldest first. */
  listExpiredLinks(options: { batchId?: number; limit?: number } = {}): Image[] {
    return this.s.expiredLinksList
      .all({
        batchId: options.batchId ?? null,
        limit: options.limit ?? 100,
      })
      .map(toImage);
  }

  counts(batchId?: number): DownloadCounts {
    const counts = Object.fromEntries(DOWNLOAD_STATES.map((s) => [s, 0])) as DownloadCounts;
    const rows = batchId === undefined ? this.s.countsAll.all() : this.s.countsBatch.all(batchId);
    for (const { state, n } of rows) counts[state] = n;
    return counts;
  }

  private assertMove(id: number, to: DownloadState): void {
    const row = this.s.stateOf.get(id);
    if (!row) throw new Error(`Image ${id} does not exist.`);
    assertDownloadTransition(row.download_state, to, `Image ${id}`);
  }
}

type RetriedRow = { id: number; jobId: number; batchId: number; expired: number };

/** Downloads queued again: how many, how many of them had an expired link, and which. */
export interface RetriedDownloads {
  queued: number;
  expired: number;
  images: Array<{ id: number; jobId: number; batchId: number }>;
}

function retried(rows: RetriedRow[]): RetriedDownloads {
  return {
    queued: rows.length,
    expired: rows.filter((row) => row.expired === 1).length,
    images: rows.map(({ id, jobId, batchId }) => ({ id, jobId, batchId })),
  };
}
