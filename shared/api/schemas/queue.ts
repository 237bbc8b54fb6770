import { z } from 'zod';
import { Count, Id, lazy } from '../define.ts';
import { ApiErrorSchema } from '../errors.ts';
import { DownloadCounts, PauseInfo, StateCounts } from './counts.ts';
import { SpendTotals } from './spend.ts';

export const Limits = lazy(() =>
  z.object({
    /** The most requests in flight the person allows. */
    concurrency: z.number().int().min(1).max(1024),
    /** The pool's size now (lowered after 429s, grown back slowly). */
    current: z.number().int().nonnegative(),
    /** Requests per minute, or null for no cap. */
    requestsPerMinute: z.number().int().positive().nullable(),
  }),
);

export const Progress = lazy(() =>
  z.object({
    jobs: StateCounts,
    downloads: DownloadCounts,
    inFlight: Count,
    downloading: Count,
    jobsPerSecond: z.number().nonnegative(),
    requestsSent: Count,
    imagesWritten: Count,
    bytesWritten: Count,
    /**
     * What was spent today (the service's local day), every batch and gateway. The service
     * always sends it; optional so a screen's test doubles need not.
     */
    spentToday: SpendTotals.optional(),
  }),
);

export const QueueState = lazy(() =>
  z.object({
    paused: PauseInfo.nullable(),
    /** Whether this process runs the queue now. */
    engine: z.enum(['stopped', 'running', 'stopping']),
    /** Another process holding the queue, when one does. */
    runner: z.object({ pid: z.number().int(), host: z.string() }).nullable(),
    /** Why the queue is not running here (no key yet, another Atelier holds it…). */
    problem: ApiErrorSchema.nullable(),
    limits: Limits,
    progress: Progress,
  }),
);

export const SetLimitsInput = lazy(() =>
  z
    .object({
      concurrency: z.number().int().min(1).max(1024).optional(),
      requestsPerMinute: z.number().int().positive().max(100_000).nullable().optional(),
    })
    .refine((v) => v.concurrency !== undefined || v.requestsPerMinute !== undefined, {
      message: 'give a concurrency, a requests-per-minute cap, or both',
    }),
);

export const RetryInput = lazy(() =>
  z.object({
    /** Only this batch; every batch when left out. */
    batchId: Id.optional(),
    /** Failed jobs whose work certainly did not happen. */
    failed: z.boolean().default(false),
    /** Jobs whose outcome is uncertain: they may have been charged ("retry anyway"). */
    uncertain: z.boolean().default(false),
    /** Failed downloads, from the stored link or bytes: never a generation request. */
    downloads: z.boolean().default(false),
    /** Ask again for the images a partial success did not return. */
    partial: z.boolean().default(false),
  }),
);

export const RetryReport = lazy(() =>
  z.object({
    failed: Count,
    uncertain: Count,
    downloads: Count,
    expiredLinks: Count,
    topUps: z.object({ prompts: Count, images: Count }),
  }),
);

export const Canceled = lazy(() => z.object({ canceled: Count }));

export const ResumeQueueInput = lazy(() =>
  z
    .object({
      /**
       * "Run anyway": a budget pause's cap no longer stops the queue (that batch's, that day's or
       * that gateway's day's). Without it, resuming while the cap still stops the next request
       * is refused (`conflict`): raise the cap instead.
       */
      overBudget: z.boolean().default(false),
    })
    .strict()
    .prefault({}),
);
