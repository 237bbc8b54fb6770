import { describe, expect, it } from 'vitest';
import { classifyFailure } from '../../../main/core/gateway/classify/classify.ts';
import { asFinal } from '../../../main/core/gateway/classify/retry-wording.ts';
import { GatewayError } from '../../../main/core/gateway/http/errors.ts';
import { LibraryWriteError } from '../../../main/core/library/write-error.ts';
import {
  downloadFailureReason,
  streamFailureReason,
} from '../../../main/core/engine/download-failure.ts';

const context = {
  requestIdHeader: 'x-svc-request-id',
  maxRetryAfterMs: 60_000,
  nowMs: 0,
  target: 'file' as const,
};

describe('downloadFailureReason', () => {
  it('says a failed file server leaves the image made and maybe charged, never "nothing was charged"', () => {
    const failure = classifyFailure(
      { kind: 'http', status: 503, body: { error: { code: 'busy', message: 'try later' } } },
      context,
    );
    expect(failure.message).toContain('Nothing was charged'); // the generation's wording
    const reason = downloadFailureReason(failure, 'image');
    expect(reason).toBe(
      'Fetching the image failed: the file server answered 503 busy: try later. The image was ' +
        'made and may have been charged. Fetching it again from its stored link never ' +
        'generates it again; it will be tried again.',
    );
    // its tries used up, the promise of another goes
    expect(asFinal(reason, 5)).toMatch(
      /never generates it again; Atelier gave up after 5 tries\.$/,
    );
  });

  it("ends the file server's own sentence once", () => {
    const failure = classifyFailure(
      { kind: 'http', status: 500, body: { error: { code: 'oops', message: 'It broke.' } } },
      context,
    );
    expect(downloadFailureReason(failure, 'image')).toMatch(
      /^Fetching the image failed: the file server answered 500 oops: It broke\. The image was/,
    );
  });

  it('says an expired link can only be had again by a new, paid generation', () => {
    const failure = classifyFailure({ kind: 'http', status: 404 }, context);
    expect(downloadFailureReason(failure, 'video')).toBe(
      'Its temporary link has expired or is gone (404). The video was made and may have been ' +
        'charged; only generating it again (a new, paid request) can bring it back.',
    );
  });

  it('says a dropped connection or a time-out in a clause, with the request id', () => {
    const dropped = classifyFailure(
      {
        kind: 'network',
        phase: 'body',
        code: 'ECONNRESET',
        requestIds: { requestId: 'r1', upstreamRequestId: null },
      },
      context,
    );
    expect(downloadFailureReason(dropped, 'image')).toMatch(
      /^Fetching the image failed: the connection dropped \(ECONNRESET\)\. .* \(request id r1\)$/,
    );
    const late = classifyFailure({ kind: 'timeout', phase: 'body', afterMs: 30_000 }, context);
    expect(downloadFailureReason(late, 'image')).toMatch(/failed: it did not finish in time\./);
  });

  it('words a body cut off on the way to the disk the same way', () => {
    const failure = classifyFailure(
      { kind: 'network', phase: 'body', code: 'ECONNRESET' },
      context,
    );
    const broken = new LibraryWriteError('network', 'The download failed after 10 bytes.', {
      cause: new GatewayError(failure),
    });
    expect(streamFailureReason(broken, 'image')).toContain(
      'The image was made and may have been charged',
    );
    const stalled = new LibraryWriteError(
      'stalled',
      'No data arrived for 30 s: the download stalled.',
    );
    expect(streamFailureReason(stalled, 'image')).toBe(
      'No data arrived for 30 s: the download stalled. The image was made and may have been ' +
        'charged; fetching it again never generates it again.',
    );
  });
});
