import { z } from 'zod';
import { DOWNLOAD_STATES } from '../../jobs/downloads.ts';
import { FAILURE_KINDS } from '../../jobs/outcomes.ts';
import { PAUSE_KINDS } from '../../jobs/pause.ts';
import { JOB_STATES } from '../../jobs/states.ts';
import { Count, lazy } from '../define.ts';
import { BudgetStopSchema } from './spend.ts';

export const JobStateSchema = z.enum(JOB_STATES);
export const DownloadStateSchema = z.enum(DOWNLOAD_STATES);
export const FailureKindSchema = z.enum(FAILURE_KINDS);
export const PauseKindSchema = z.enum(PAUSE_KINDS);

/** Jobs by state; every state present, zero included. */
export const StateCounts = lazy(() =>
  z.object(
    Object.fromEntries(JOB_STATES.map((s) => [s, Count])) as Record<
      (typeof JOB_STATES)[number],
      typeof Count
    >,
  ),
);
/** Images by download state; every state present, zero included. */
export const DownloadCounts = lazy(() =>
  z.object(
    Object.fromEntries(DOWNLOAD_STATES.map((s) => [s, Count])) as Record<
      (typeof DOWNLOAD_STATES)[number],
      typeof Count
    >,
  ),
);
/** Failed jobs by why they failed; absent kinds are zero. */
export const FailureCounts = lazy(() => z.partialRecord(FailureKindSchema, Count));

/** Why the whole queue stopped taking work, and what sort of stop it is. */
export const PauseInfo = lazy(() =>
  z.object({
    reason: z.string(),
    /** The gateway's code when a gateway answer paused it. */
    code: z.string().nullable(),
    kind: PauseKindSchema,
    /** What stopped it, in a person's words ("A spending cap is reached"). */
    title: z.string().optional(),
    /** A budget pause: the cap it stopped before, what was spent and the next request's cost. */
    budget: BudgetStopSchema.nullable().optional(),
  }),
);
