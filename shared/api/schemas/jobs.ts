import { z } from 'zod';
import { JOB_ACTIONS, type JobAction } from '../../jobs/eligibility.ts';
import { ATTEMPT_OUTCOMES } from '../../jobs/outcomes.ts';
import { Count, Id, lazy, Time } from '../define.ts';
import { Cursor } from '../paging.ts';
import { FailureKindSchema, JobStateSchema } from './counts.ts';
import { ImageSummary } from './images.ts';

/** Prompts in lists are cut to this many characters; the detail has the whole text. */
export const SUMMARY_PROMPT_CHARS = 300;

/**
 * A video job's way on the platform, beside its state in the queue. `phase`: `waiting` (not
 * submitted yet), `submitted` (the platform has it queued), `in-progress` (with `progress`),
 * `pending` (the platform said a status Atelier does not know: still waiting), `succeeded`,
 * `failed`.
 */
export const VideoStatus = lazy(() =>
  z.object({
    phase: z.enum(['waiting', 'submitted', 'in-progress', 'pending', 'succeeded', 'failed']),
    /** The status as the platform spelled it (`IN_PROGRESS`, `queued`, `rendering`…). */
    platformStatus: z.string().nullable(),
    /** 0–100, when the platform says. */
    progress: z.number().min(0).max(100).nullable(),
    taskId: z.string().nullable(),
    /** The submission's request ids (what support asks for), and the last status check's. */
    requestId: z.string().nullable(),
    upstreamRequestId: z.string().nullable(),
    checkRequestId: z.string().nullable(),
    submittedAt: Time.nullable(),
    /** The last answer about the task. */
    checkedAt: Time.nullable(),
    /** From the submission to the end, or to the read while it runs. */
    elapsedMs: z.number().int().nonnegative().nullable(),
    /** Past its model's usual time: still checked, less often ("overdue: checking"). */
    overdue: z.boolean(),
    overdueSince: Time.nullable(),
  }),
);

export const JobSummary = lazy(() =>
  z.object({
    id: Id,
    batchId: Id,
    position: z.number().int(),
    kind: z.enum(['image', 'video']),
    /** Cut to SUMMARY_PROMPT_CHARS; `promptChars` is the full length. */
    prompt: z.string(),
    promptChars: Count,
    name: z.string().nullable(),
    model: z.string(),
    size: z.string().nullable(),
    n: z.number().int(),
    seed: z.number().int().nullable(),
    state: JobStateSchema,
    /** Held by the person (the job stays queued behind the flag). */
    paused: z.boolean(),
    tries: Count,
    failureKind: FailureKindSchema.nullable(),
    /** The failure kind in a few words ("may have been charged"); null unless it failed. */
    failureText: z.string().nullable().optional(),
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
    /** What support asks for: the gateway's id of the last request. */
    lastRequestId: z.string().nullable(),
    returnedN: z.number().int().nullable(),
    /** Of its images, those whose download failed: the prompt succeeded, a file is missing. */
    failedDownloads: Count,
    nextAttemptAt: Time.nullable(),
    createdAt: Time,
    startedAt: Time.nullable(),
    finishedAt: Time.nullable(),
    /** Video jobs only. */
    video: VideoStatus.optional(),
  }),
);

export const Transition = lazy(() =>
  z.object({
    from: JobStateSchema,
    to: JobStateSchema,
    at: Time,
    reason: z.string().nullable(),
  }),
);

export const JobDetail = lazy(() =>
  JobSummary.unwrap().extend({
    /** Every parameter sent, as the request had it. */
    params: z.record(z.string(), z.unknown()),
    stateReason: z.string().nullable(),
    lastUpstreamRequestId: z.string().nullable(),
    /** The job this one tops up or retries. */
    retryOf: Id.nullable(),
    /**
     * Requests sent for it in all, every retry of every run (its `attempts`); `tries` counts
     * only those since the person last queued it again (its retry budget).
     */
    attempts: Count.optional(),
    images: z.array(ImageSummary),
    /** The latest transitions, oldest first (capped). */
    transitions: z.array(Transition),
  }),
);

export const AttemptSummary = lazy(() =>
  z.object({
    id: Id,
    startedAt: Time,
    endedAt: Time.nullable(),
    httpStatus: z.number().int().nullable(),
    outcome: z.enum(ATTEMPT_OUTCOMES).nullable(),
    /** The outcome in a person's words ("Refused for the whole queue: paused it, the job waits"). */
    outcomeText: z.string().optional(),
    decision: z.string().nullable(),
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
    requestId: z.string().nullable(),
    upstreamRequestId: z.string().nullable(),
    retryAfterMs: z.number().int().nullable(),
  }),
);

export const JobIdsInput = lazy(() =>
  z.object({
    batchId: Id,
    /** Every state when left out. */
    states: z.array(JobStateSchema).min(1).optional(),
    /** Only failed jobs of these kinds (implies state failed). */
    failureKinds: z.array(FailureKindSchema).min(1).optional(),
    cursor: Cursor.nullish(),
    limit: z.number().int().min(1).max(10_000).default(10_000),
  }),
);

export const AttemptsInput = lazy(() =>
  z.object({
    jobId: Id,
    cursor: Cursor.nullish(),
    limit: z.number().int().min(1).max(500).default(100),
  }),
);

export const RetryJobsInput = lazy(() =>
  z.object({
    ids: z.array(Id).min(1).max(10_000),
    /**
     * Also resend jobs whose outcome is uncertain: the work may have finished and been
     * charged, so only the person's explicit "retry anyway" does it.
     */
    anyway: z.boolean().default(false),
  }),
);

export const MoveJobsInput = lazy(() =>
  z.object({
    ids: z.array(Id).min(1).max(10_000),
    position: z.enum(['front', 'back']),
  }),
);

export const TopUpReport = lazy(() => z.object({ prompts: Count, images: Count }));

/** How many of a selection each bulk action would change (shared/jobs/eligibility.ts). */
export const Actionable = lazy(() =>
  z.object(
    Object.fromEntries(JOB_ACTIONS.map((action) => [action, Count])) as Record<
      JobAction,
      typeof Count
    >,
  ),
);
