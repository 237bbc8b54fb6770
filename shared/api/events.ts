import { z } from 'zod';
import { Count, Id, lazy } from './define.ts';
import { Cursor } from './paging.ts';
import { KeyStatus, LibraryMove } from './schemas/app.ts';
import {
  DownloadCounts,
  FailureCounts,
  JobStateSchema,
  PauseInfo,
  StateCounts,
} from './schemas/counts.ts';
import { ExportProgress } from './schemas/images.ts';
import { VideoStatus } from './schemas/jobs.ts';
import { PromptHelpProgress } from './schemas/prompts.ts';
import { Limits, Progress } from './schemas/queue.ts';
import { SpendTotals } from './schemas/spend.ts';

const event = <T extends string, P extends z.ZodType>(type: T, payload: P) =>
  z.object({ type: z.literal(type), payload });

/**
 * What the service tells its clients, coalesced: at most about ten deliveries a second
 * whatever the job rate, each an array of these.
 */
export const ApiEventSchema = lazy(() =>
  z.discriminatedUnion('type', [
    event(
      'progress',
      Progress.unwrap().extend({
        paused: PauseInfo.nullable(),
        /** Only the batches touched since the last progress, with what each spent so far. */
        batches: z.array(
          z.object({
            id: Id,
            jobs: StateCounts,
            downloads: DownloadCounts,
            spent: SpendTotals.optional(),
          }),
        ),
      }),
    ),
    /** The last state of each job that changed in the window. */
    event(
      'jobs.changed',
      z.object({ changes: z.array(z.tuple([Id, JobStateSchema])), batches: z.array(Id) }),
    ),
    event(
      'images.written',
      z.object({
        images: z.array(
          z.object({
            id: Id,
            jobId: Id,
            batchId: Id,
            relPath: z.string(),
            thumbRelPath: z.string().nullable(),
          }),
        ),
      }),
    ),
    /** Images deleted (by any client): drop them from every view. */
    event('images.deleted', z.object({ ids: z.array(Id) })),
    /**
     * Video jobs whose platform status, progress or overdue mark changed in the window, each as
     * it is now (on subscribing: every running video job).
     */
    event(
      'videos.changed',
      z.object({
        jobs: z.array(
          VideoStatus.unwrap().extend({ jobId: Id, batchId: Id, state: JobStateSchema }),
        ),
      }),
    ),
    /**
     * Images changed in place: a favourite set, a download that failed, was retried or waits
     * again. `ids` empty: another process changed images of `batches` (or of any batch when
     * `batches` is empty too) in ways it cannot say, so refetch what shows them.
     */
    event('images.changed', z.object({ ids: z.array(Id), batches: z.array(Id) })),
    /**
     * Batches changed besides their counts: created, renamed, moved, held, released, deleted
     * (`deleted` lists those gone, with their jobs and images).
     */
    event('batches.changed', z.object({ ids: z.array(Id), deleted: z.array(Id) })),
    /**
     * Jobs changed besides their state: held, released, moved, topped up. `ids` empty: jobs of
     * `batches` changed in another process, which cannot say which.
     */
    event('jobs.updated', z.object({ ids: z.array(Id), batches: z.array(Id) })),
    /** An export moved on (at most ~10 a second) or ended. */
    event('export.progress', ExportProgress),
    /** A prompt-help request moved on (at most ~10 a second) or ended: the prompts it added. */
    event('prompts.progress', PromptHelpProgress),
    event('queue.paused', PauseInfo),
    event('queue.resumed', z.object({})),
    event(
      'batch.finished',
      z.object({
        batchId: Id,
        name: z.string(),
        jobs: StateCounts,
        failures: FailureCounts,
        downloads: DownloadCounts,
        partial: Count,
      }),
    ),
    /** The library's move went on (at most ~10 a second) or ended. */
    event('library.move', LibraryMove),
    event('limits.changed', Limits),
    event('settings.changed', z.object({})),
    event('key.changed', KeyStatus),
    /** The client fell too far behind: refetch what it shows. */
    event('resync', z.object({ reason: z.string() })),
  ]),
);
export type ApiEvent = z.infer<typeof ApiEventSchema>;
export type ApiEventType = ApiEvent['type'];
export type ApiEventOf<T extends ApiEventType> = Extract<ApiEvent, { type: T }>;

/** One delivery: the events of a window, and the cursor to resume after them. */
export const EventBatchSchema = lazy(() =>
  z.object({ cursor: Cursor, events: z.array(ApiEventSchema) }),
);
export type EventBatch = z.infer<typeof EventBatchSchema>;
