import type { AttemptOutcome, FailureKind } from './outcomes.ts';
import type { PauseKind } from './pause.ts';

/**
 * The queue's own codes in a person's words, for every host to show the same sentence: a pause
 * kind, what one request (attempt) came to, why a job failed. A raw `pause-queue` or
 * `retries-exhausted` is never what a person reads.
 */

/** What stopped the whole queue. */
export const PAUSE_KIND_WORDS: Record<PauseKind, string> = {
  auth: 'The gateway refused the key',
  permission: 'The key is not allowed this request',
  balance: 'The account is out of quota',
  'rate-limit': 'The gateway keeps rate limiting',
  disk: 'Files cannot be written',
  budget: 'A spending cap is reached',
  manual: 'Paused by you',
  other: 'The queue stopped',
};

/**
 * What one request sent for a job came to (null: still in flight). A video job's request
 * submits its task: that it was taken is no success of the job, still rendering.
 */
export function attemptOutcomeWords(
  outcome: AttemptOutcome | null,
  kind: 'image' | 'video' = 'image',
): string {
  if (kind === 'video' && outcome === 'succeeded') return 'Task submitted';
  return outcome === null ? 'In flight' : ATTEMPT_OUTCOME_WORDS[outcome];
}

const ATTEMPT_OUTCOME_WORDS: Record<AttemptOutcome, string> = {
  succeeded: 'Succeeded',
  partial: 'Succeeded with fewer images than asked',
  retry: 'Failed; tried again',
  failed: 'Failed',
  uncertain: 'No answer: it may have been done and charged',
  'pause-queue': 'Refused for the whole queue: paused it, the job waits',
  canceled: 'Canceled',
  interrupted: 'Cut off when Atelier stopped',
};

/** Why a job failed, in a few words (a chip, a filter). */
export const FAILURE_KIND_WORDS: Record<FailureKind, string> = {
  uncertain: 'may have been charged',
  rejected: 'refused',
  auth: 'key refused',
  permission: 'not allowed',
  balance: 'out of quota',
  'empty-result': 'no image came back',
  'retries-exhausted': 'gave up after retrying',
  'task-failed': 'the task failed',
  'not-an-image': 'not an image',
  internal: 'an Atelier error',
};

/** A result's name, one and many: "image", "images". */
export interface ResultWords {
  one: string;
  many: string;
}

/**
 * What a batch's results are called, by how many of its `jobs` make videos: a video batch's
 * card counts videos, not "0 images".
 */
export function resultWords(jobs: number, videos: number): ResultWords {
  if (videos === 0) return { one: 'image', many: 'images' };
  if (videos >= jobs) return { one: 'video', many: 'videos' };
  return { one: 'image or video', many: 'images and videos' };
}
