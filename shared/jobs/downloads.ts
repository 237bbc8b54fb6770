/**
 * Per-image download states. A download is retried from the stored URL or bytes, never by
 * generating again, so these are separate from the job's states: a job can be `succeeded`
 * while one of its images is `failed` to download.
 */
export const DOWNLOAD_STATES = ['pending', 'downloading', 'done', 'failed'] as const;

export type DownloadState = (typeof DOWNLOAD_STATES)[number];

export const DOWNLOAD_TRANSITIONS: {
  readonly [From in DownloadState]: readonly DownloadState[];
} = {
  pending: ['downloading'],
  // back to pending: a retry after backoff, or an unfinished download resumed after a crash
  downloading: ['done', 'failed', 'pending'],
  done: [],
  // "retry downloads"
  failed: ['pending'],
};

export function canDownloadTransition(from: DownloadState, to: DownloadState): boolean {
  return DOWNLOAD_TRANSITIONS[from].includes(to);
}

export function assertDownloadTransition(
  from: DownloadState,
  to: DownloadState,
  subject?: string,
): void {
  if (!canDownloadTransition(from, to)) {
    const allowed = DOWNLOAD_TRANSITIONS[from];
    throw new Error(
      `${subject ? `${subject}: ` : ''}a download cannot go from "${from}" to "${to}". ` +
        (allowed.length > 0
          ? `From "${from}" it may only go to: ${allowed.join(', ')}.`
          : `"${from}" is final.`),
    );
  }
}
