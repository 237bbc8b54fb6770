import type { FailureKind } from './outcomes.ts';
import type { JobState } from './states.ts';

/**
 * What the person can do to jobs, and to which: the one table the service's handlers filter
 * by and the queue's bulk bar counts with (through `jobs.actionable`), so a button is offered
 * only for what it will change and says how many.
 */
export const JOB_ACTIONS = [
  'move',
  'hold',
  'release',
  'retry',
  'retry-anyway',
  'top-up',
  'retry-downloads',
  'cancel',
] as const;
export type JobAction = (typeof JOB_ACTIONS)[number];

/** What the table reads of a job. */
export interface JobFacts {
  state: JobState;
  /** Held by the person. */
  paused: boolean;
  failureKind: FailureKind | null;
  n: number;
  returnedN: number | null;
  /** Its images whose link gave something that is not an image (a top-up asks again). */
  notImages: number;
  /** Its other failed downloads (retried from the stored link or bytes). */
  failedDownloads: number;
  /** A top-up of it exists already. */
  toppedUp: boolean;
}

/** Where the job stands: with an engine here a running job can be canceled (its request aborted). */
export interface ActionContext {
  engineHere: boolean;
}

const waiting = (job: JobFacts) => job.state === 'queued' || job.state === 'retrying';

export const ELIGIBLE: {
  readonly [A in JobAction]: (job: JobFacts, ctx: ActionContext) => boolean;
} = {
  // a job waiting to be sent: to the front or back of its batch, or held there
  move: (job) => waiting(job),
  hold: (job) => waiting(job) && !job.paused,
  release: (job) => job.paused,
  // failed where nothing was charged, or canceled: safe to send again
  retry: (job) =>
    job.state === 'canceled' || (job.state === 'failed' && job.failureKind !== 'uncertain'),
  // failed after the request was sent: it may have been done and charged
  'retry-anyway': (job) => job.state === 'failed' && job.failureKind === 'uncertain',
  // succeeded with fewer images than asked (or some not images), not topped up yet
  'top-up': (job) =>
    job.state === 'succeeded' &&
    !job.toppedUp &&
    job.n - (job.returnedN ?? job.n) + job.notImages > 0,
  'retry-downloads': (job) => job.failedDownloads > 0,
  // a running job only where this process sent it: elsewhere its answer may be paid for
  cancel: (job, ctx) => waiting(job) || (job.state === 'running' && ctx.engineHere),
};

export function eligible(action: JobAction, job: JobFacts, ctx: ActionContext): boolean {
  return ELIGIBLE[action](job, ctx);
}

/** How many of `jobs` each action applies to. */
export function countEligible(
  jobs: readonly JobFacts[],
  ctx: ActionContext,
): Record<JobAction, number> {
  const counts = Object.fromEntries(JOB_ACTIONS.map((a) => [a, 0])) as Record<JobAction, number>;
  for (const job of jobs)
    for (const action of JOB_ACTIONS) if (ELIGIBLE[action](job, ctx)) counts[action]++;
  return counts;
}
