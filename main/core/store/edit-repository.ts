import type { Database } from 'better-sqlite3';
import { transact } from './transaction.ts';

/** What an edit job sends and what it was made from (its `job_edits` row). */
export interface JobEdit {
  jobId: number;
  /** sha256 of the PNG sent as the picture (see EditInputFiles). */
  imageSha256: string;
  width: number;
  height: number;
  /** sha256 of the PNG sent as the mask; null when the whole picture may change. */
  maskSha256: string | null;
  /** The gallery image edited; null for a file from outside the library, or once deleted. */
  sourceImageId: number | null;
  /** What the picture was, for a person: its library path, or the file's path. */
  sourceLabel: string;
  /** Paste the result back over the picture outside the mask (locally, once written). */
  keepOutsideMask: boolean;
}

export type NewJobEdit = Omit<JobEdit, 'jobId'>;

function toJobEdit(row: Record<string, unknown>): JobEdit {
  return {
    jobId: row.job_id as number,
    imageSha256: row.image_sha256 as string,
    width: row.width as number,
    height: row.height as number,
    maskSha256: row.mask_sha256 as string | null,
    sourceImageId: row.source_image_id as number | null,
    sourceLabel: row.source_label as string,
    keepOutsideMask: row.keep_outside_mask === 1,
  };
}

function editStatements(db: Database) {
  const sql = <Row = unknown>(text: string) => db.prepare<unknown[], Row>(text);
  return {
    insert: sql(
      `INSERT INTO job_edits (job_id, image_sha256, width, height, mask_sha256,
         source_image_id, source_label, keep_outside_mask)
       VALUES (@jobId, @imageSha256, @width, @height, @maskSha256, @sourceImageId,
         @sourceLabel, @keepOutsideMask)`,
    ),
    jobsOfBatch: sql<{ id: number }>(
      'SELECT id FROM jobs WHERE batch_id = ? ORDER BY position, id',
    ),
    ofJob: sql<Record<string, unknown>>('SELECT * FROM job_edits WHERE job_id = ?'),
    ofImage: sql<Record<string, unknown>>(
      `SELECT e.* FROM images AS i JOIN job_edits AS e ON e.job_id = i.job_id WHERE i.id = ?`,
    ),
    copy: sql(
      `INSERT INTO job_edits (job_id, image_sha256, width, height, mask_sha256,
         source_image_id, source_label, keep_outside_mask)
       SELECT @to, image_sha256, width, height, mask_sha256, source_image_id, source_label,
         keep_outside_mask
       FROM job_edits WHERE job_id = @from`,
    ),
    inputs: sql<{ sha: string }>(
      `SELECT image_sha256 AS sha FROM job_edits
       UNION SELECT mask_sha256 FROM job_edits WHERE mask_sha256 IS NOT NULL`,
    ),
  };
}

/** Edit jobs' inputs and sources. Jobs themselves enter through JobRepository.insertJobs. */
export class EditRepository {
  private readonly db: Database;
  private statements: ReturnType<typeof editStatements> | null = null;

  constructor(db: Database) {
    this.db = db;
  }

  // prepared on first use: a store opened at an older schema (a migration's test) has no job_edits
  private get s(): ReturnType<typeof editStatements> {
    return (this.statements ??= editStatements(this.db));
  }

  /**
   * Makes a new batch's jobs edits, in their order (by position): `edits[i]` for its i-th
   * job. In the caller's transaction, the one that created the batch, so a batch's jobs are
   * never seen without their inputs.
   */
  addToBatch(batchId: number, edits: readonly NewJobEdit[]): void {
    transact(this.db, () => {
      const jobs = this.s.jobsOfBatch.all(batchId);
      if (jobs.length !== edits.length) {
        throw new Error(
          `Batch ${batchId} has ${jobs.length} jobs but ${edits.length} edits were given: ` +
            'every job of an edit batch needs its picture.',
        );
      }
      jobs.forEach(({ id }, i) => {
        const edit = edits[i]!;
        this.s.insert.run({
          jobId: id,
          imageSha256: edit.imageSha256,
          width: edit.width,
          height: edit.height,
          maskSha256: edit.maskSha256,
          sourceImageId: edit.sourceImageId,
          sourceLabel: edit.sourceLabel,
          keepOutsideMask: edit.keepOutsideMask ? 1 : 0,
        });
      });
    });
  }

  /** The edit a job sends, or undefined for a job that generates. */
  ofJob(jobId: number): JobEdit | undefined {
    const row = this.s.ofJob.get(jobId);
    return row && toJobEdit(row);
  }

  /** The edit that made an image, or undefined when it was generated. */
  ofImage(imageId: number): JobEdit | undefined {
    const row = this.s.ofImage.get(imageId);
    return row && toJobEdit(row);
  }

  /** A follow-up job (a top-up) edits what its origin edited, if it did. */
  copy(fromJobId: number, toJobId: number): void {
    this.s.copy.run({ from: fromJobId, to: toJobId });
  }

  /** Every input file some job still needs (see EditInputFiles.sweep). */
  inputsInUse(): Set<string> {
    return new Set(this.s.inputs.all().map((row) => row.sha));
  }
}
