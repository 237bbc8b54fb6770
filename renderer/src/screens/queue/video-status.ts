import type { JobSummary } from '../../data/types.ts';

export type VideoStatus = NonNullable<JobSummary['video']>;

/**
 * A video job's way on the platform in a few words, beside its state in the queue: submitted,
 * in progress with its percentage, pending (a status Atelier does not know is still waited
 * on, never a failure), done or failed there; null before it is submitted.
 */
export function platformText(video: VideoStatus): string | null {
  switch (video.phase) {
    case 'waiting':
      return null;
    case 'submitted':
      return 'submitted';
    case 'in-progress':
      return video.progress === null ? 'in progress' : `in progress ${Math.floor(video.progress)}%`;
    case 'pending':
      return 'pending';
    case 'succeeded':
      return 'done on the platform';
    case 'failed':
      return 'failed on the platform';
  }
}

/** The platform's own word when it says more than the phase does ("rendering", "queued"). */
export function platformWord(video: VideoStatus): string | null {
  const word = video.platformStatus?.trim();
  return word ? word : null;
}

/** Whether the task is on the platform and not ended: its elapsed time still grows. */
export const isUnderWay = (video: VideoStatus, state: JobSummary['state']) =>
  video.submittedAt !== null &&
  (state === 'running' || state === 'retrying') &&
  (video.phase === 'submitted' || video.phase === 'in-progress' || video.phase === 'pending');

/** Time since the submission: to `now` while it runs, else what the service last measured. */
export function elapsedOf(
  video: VideoStatus,
  state: JobSummary['state'],
  now: number,
): number | null {
  if (video.submittedAt === null) return null;
  if (isUnderWay(video, state)) return Math.max(0, now - video.submittedAt);
  return video.elapsedMs;
}

/** "42 s", "3 min 05 s", "1 h 02 min": an elapsed time that ticks without jumping width. */
export function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}
