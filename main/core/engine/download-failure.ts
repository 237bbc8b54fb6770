import type { GatewayFailure } from '../../../shared/gateway/outcome.ts';
import { WILL_RETRY } from '../gateway/classify/retry-wording.ts';
import { GatewayError } from '../gateway/http/errors.ts';
import type { LibraryWriteError } from '../library/write-error.ts';

/**
 * Why an image's (or a video's) file could not be fetched, for the job's and the gallery's
 * details. The gateway client words failures for a generation ("Nothing was charged", "fewer
 * requests are sent at once"), which is false of a download: the picture was made, and
 * billed, before its link was ever fetched. Fetching it again costs nothing and never
 * generates it again; only an expired link needs a new generation.
 */
export function downloadFailureReason(failure: GatewayFailure, kind: 'image' | 'video'): string {
  const what = kind === 'video' ? 'video' : 'image';
  const made = `The ${what} was made and may have been charged`;
  const id = requestIdOf(failure);
  if (failure.kind === 'expired-link') {
    return (
      `Its temporary link has expired or is gone (${failure.said ?? failure.status}). ${made}; ` +
      `only generating it again (a new, paid request) can bring it back.${id}`
    );
  }
  if (failure.kind === 'bad-response' && failure.code === 'redirect_refused') {
    return `${failure.message} ${made}.`;
  }
  return (
    `Fetching the ${what} failed: ${sentence(causeOf(failure))} ${made}. Fetching it again from its ` +
    `stored link never generates it again; ${WILL_RETRY}.${id}`
  );
}

/** A download that broke off or stalled on the way to the disk, said as truthfully. */
export function streamFailureReason(error: LibraryWriteError, kind: 'image' | 'video'): string {
  if (error.cause instanceof GatewayError) return downloadFailureReason(error.cause.failure, kind);
  return (
    `${error.message} The ${kind === 'video' ? 'video' : 'image'} was made and may have been ` +
    'charged; fetching it again never generates it again.'
  );
}

/** What went wrong with the file's request itself, in a clause. */
function causeOf(failure: GatewayFailure): string {
  const code = failure.code ? ` (${failure.code})` : '';
  if (failure.code === 'truncated') return 'the file was cut short';
  if (failure.code?.endsWith('_timeout')) {
    return failure.sent
      ? 'it did not finish in time'
      : 'the file server could not be reached in time';
  }
  switch (failure.kind) {
    case 'network':
      return failure.sent
        ? `the connection dropped${code}`
        : `the file server could not be reached${code}`;
    case 'rate-limited':
      return `the file server is rate limiting (${failure.said ?? failure.status})`;
    case 'canceled':
      return 'it was canceled';
    default:
      return `the file server answered ${failure.said ?? failure.status ?? 'with an error'}`;
  }
}

/** Ends a clause with a full stop, unless the server's own words ended it already. */
function sentence(clause: string): string {
  return /[.!?]$/.test(clause) ? clause : `${clause}.`;
}

function requestIdOf(failure: GatewayFailure): string {
  const id = failure.requestIds.requestId ?? failure.requestIds.upstreamRequestId;
  return id ? ` (request id ${id})` : '';
}
