import type { JobDetail } from '../../data/types.ts';
import { plural } from '../../format.ts';

/**
 * Requests sent for it in all (`attempts`, every retry of every run) beside its tries (the
 * retry budget since it was last queued again): "3 requests sent; 1 try since it was queued
 * again", never "1 try" beside three attempts.
 */
export function triesText(detail: Pick<JobDetail, 'tries' | 'attempts'>): string {
  const tries = plural(detail.tries, 'try', 'tries');
  const attempts = detail.attempts ?? detail.tries;
  if (attempts === detail.tries) return plural(attempts, 'request') + ' sent';
  return `${plural(attempts, 'request')} sent; ${tries} since it was queued again`;
}

/** A succeeded prompt whose files did not all arrive: "download failed", "2 downloads failed". */
export function failedDownloadsText(failed: number): string {
  return failed === 1 ? 'download failed' : `${plural(failed, 'download')} failed`;
}
