import type { FailureKind } from '../../../../shared/jobs/outcomes.ts';

export type FailureGroupId =
  | 'rejected'
  | 'uncertain'
  | 'rate-limited'
  | 'server'
  | 'account'
  | 'not-an-image'
  | 'other'
  | 'partial'
  | 'download-failed'
  | 'link-expired'
  | 'disk-full';

/** What the group's button does. */
export type FailureAction =
  'retry-failed' | 'retry-anyway' | 'retry-downloads' | 'top-up' | 'open-settings' | 'show-jobs';

export interface FailureGroup {
  id: FailureGroupId;
  title: string;
  count: number;
  /** What happened and what to do, in a sentence or two. */
  advice: string;
  action: FailureAction;
  actionLabel: string;
  /** The failed jobs of the group (for "show jobs"); download groups have none. */
  kinds: FailureKind[];
}

export interface FailureInput {
  /** Failed jobs by kind (`batches.get`'s failures). */
  failures: Partial<Record<FailureKind, number>>;
  /** Of the `retries-exhausted` ones, those the gateway kept rate limiting. */
  rateLimited?: number;
  /** Succeeded jobs that returned fewer images than asked. */
  partial?: number;
  /** Images whose download failed, every cause included. */
  downloadsFailed: number;
  /** Of those, links that had expired. */
  expiredLinks: number;
  /** Of those, writes refused because the disk was full. */
  diskFull: number;
}

/** Failed jobs and failed downloads, grouped by what happened, each with what to do. */
export function groupFailures(input: FailureInput): FailureGroup[] {
  const f = input.failures;
  const n = (kind: FailureKind) => f[kind] ?? 0;
  const rateLimited = Math.min(input.rateLimited ?? 0, n('retries-exhausted'));
  const expired = Math.min(input.expiredLinks, input.downloadsFailed);
  const diskFull = Math.min(input.diskFull, input.downloadsFailed - expired);
  const groups: FailureGroup[] = [
    {
      id: 'rejected',
      title: 'Rejected by the gateway',
      count: n('rejected'),
      advice:
        'The gateway refused the parameters (size, n, a field the model does not take). ' +
        'Resending the same request fails again: fix the prompt or model, then compose again.',
      action: 'show-jobs',
      actionLabel: 'Show rejected jobs',
      kinds: ['rejected'],
    },
    {
      id: 'uncertain',
      title: 'Outcome uncertain',
      count: n('uncertain'),
      advice:
        'The gateway timed out after the request was sent: the work may have finished and ' +
        'been charged. Check the usage log for their request ids; retry only if nothing was made.',
      action: 'retry-anyway',
      actionLabel: 'Retry anyway…',
      kinds: ['uncertain'],
    },
    {
      id: 'rate-limited',
      title: 'Rate limited',
      count: rateLimited,
      advice:
        'The gateway kept answering 429 until the retries ran out. Lower the concurrency or ' +
        'the requests per minute in the queue’s limits, then retry them.',
      action: 'retry-failed',
      actionLabel: 'Retry failed jobs',
      kinds: ['retries-exhausted'],
    },
    {
      id: 'server',
      title: 'Server errors',
      count: n('retries-exhausted') - rateLimited + n('empty-result') + n('task-failed'),
      advice:
        'The gateway failed before doing the work (5xx, empty answers): nothing was charged. ' +
        'Retrying is safe.',
      action: 'retry-failed',
      actionLabel: 'Retry failed jobs',
      kinds: ['retries-exhausted', 'empty-result', 'task-failed'],
    },
    {
      id: 'account',
      title: 'Key or account refused',
      count: n('auth') + n('permission') + n('balance'),
      advice:
        'The key was refused, not allowed this model, or the quota ran out. Check the key ' +
        'and the account in Settings, then retry the failed jobs.',
      action: 'open-settings',
      actionLabel: 'Open Settings',
      kinds: ['auth', 'permission', 'balance'],
    },
    {
      id: 'not-an-image',
      title: 'Not an image',
      count: n('not-an-image'),
      advice:
        'The gateway answered success with something that is not a usable image. Retry if ' +
        'it looks like a passing fault; it may be charged again.',
      action: 'retry-failed',
      actionLabel: 'Retry failed jobs',
      kinds: ['not-an-image'],
    },
    {
      id: 'other',
      title: 'Other failures',
      count: n('internal'),
      advice: 'Something unexpected happened; the job details say what. Retry, or report it.',
      action: 'show-jobs',
      actionLabel: 'Show these jobs',
      kinds: ['internal'],
    },
    {
      id: 'partial',
      title: 'Fewer images than asked',
      count: input.partial ?? 0,
      advice:
        'Some jobs succeeded with fewer images than n. A top-up asks for the missing ones ' +
        'only, as new jobs.',
      action: 'top-up',
      actionLabel: 'Top up',
      kinds: [],
    },
    {
      id: 'download-failed',
      title: 'Download failed',
      count: input.downloadsFailed - expired - diskFull,
      advice:
        'The image was made (and paid for) but fetching or writing it failed. Retrying the ' +
        'download asks for the stored link again: no new generation.',
      action: 'retry-downloads',
      actionLabel: 'Retry downloads',
      kinds: [],
    },
    {
      id: 'link-expired',
      title: 'Link expired',
      count: expired,
      advice:
        'The temporary link expired before the image was saved. A retry asks once more; ' +
        'if it still fails, only generating again brings the image back.',
      action: 'retry-downloads',
      actionLabel: 'Retry downloads',
      kinds: [],
    },
    {
      id: 'disk-full',
      title: 'Disk full',
      count: diskFull,
      advice:
        'The library’s disk is full. Free some space or choose another library folder in ' +
        'Settings, then retry the downloads.',
      action: 'retry-downloads',
      actionLabel: 'Retry downloads',
      kinds: [],
    },
  ];
  return groups.filter((group) => group.count > 0);
}

/** Error codes a job keeps when the gateway was rate limiting it. */
export function isRateLimitCode(code: string | null): boolean {
  return code !== null && /rate.?limit|429|too.?many/i.test(code);
}
