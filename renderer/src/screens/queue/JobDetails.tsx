import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../../data/error-message.ts';
import type { JobDetail } from '../../data/types.ts';
import { copyText } from '../../views/copy-text.ts';
import { attemptOutcomeWords } from '../../../../shared/jobs/words.ts';
import { formatDuration, formatTime } from '../../format.ts';
import { failedDownloadsText, triesText } from './job-words.ts';
import { useAttempts, useJobDetail } from './queue-queries.ts';
import { VideoChips, VideoTaskDetails } from './VideoTask.tsx';

/** One job as support asks for it: prompt, parameters, attempts and request ids. */
export function JobDetails({ jobId, onClose }: { jobId: number; onClose: () => void }) {
  // both follow the job's events (a state change, a hold): no reload of their own
  const { data: detail, error: detailError } = useJobDetail(jobId);
  const attempts = useAttempts(jobId).data ?? [];
  const error = detailError ? errorMessage(detailError) : null;
  // Escape closes it while the focus is inside (a panel, not a control: no handler of its own)
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    const element = panel.current;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    element?.addEventListener('keydown', onKey);
    return () => element?.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <aside ref={panel} className="job-details" aria-label="Job details">
      <div className="details-head">
        <h2>{detail ? `Job #${detail.position}` : 'Job'}</h2>
        <button
          type="button"
          className="ghost icon"
          aria-label="Close job details"
          onClick={onClose}
        >
          ✕
        </button>
      </div>
      {error && <p className="notice notice-error">{error}</p>}
      {!detail ? (
        !error && <p className="muted">Loading…</p>
      ) : (
        <>
          <p className="details-state">
            <span className={`chip chip-${detail.state}`}>{detail.state}</span>
            {detail.paused && <span className="chip">held</span>}
            {detail.failureKind && (
              <span className="chip chip-failed">{detail.failureText ?? detail.failureKind}</span>
            )}
            {detail.failedDownloads > 0 && (
              <span className="chip chip-failed">
                {failedDownloadsText(detail.failedDownloads)}
              </span>
            )}
            {detail.video && (
              <VideoChips video={detail.video} state={detail.state} withElapsed={false} />
            )}
            <span className="muted">{triesText(detail)}</span>
          </p>
          {detail.errorMessage && (
            // a job that waits (put back by a pause, or retrying) is not failed: not in red
            <p className={detail.state === 'failed' ? 'details-error' : 'details-waiting'}>
              {detail.state === 'failed' ? '' : 'Last answer: '}
              {detail.errorMessage}
            </p>
          )}
          <h3>Prompt</h3>
          <p className="details-prompt">{detail.prompt}</p>
          <h3>Parameters</h3>
          <dl className="details-params">
            {paramsOf(detail).map(([key, value]) => (
              <div key={key}>
                <dt>{key}</dt>
                <dd>{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
              </div>
            ))}
          </dl>
          {detail.video && (
            <VideoTaskDetails
              video={detail.video}
              state={detail.state}
              model={detail.model}
              copyRow={(label, value) => <CopyRow label={label} value={value} />}
            />
          )}
          <h3>Request ids</h3>
          <CopyRow label="Request id" value={detail.lastRequestId} />
          <CopyRow label="Upstream id" value={detail.lastUpstreamRequestId} />
          {detail.images.length > 0 && (
            <>
              <h3>Images</h3>
              <ul className="details-images">
                {detail.images.map((image) => (
                  <li key={image.id}>
                    #{image.idx + 1}: {DOWNLOAD_WORDS[image.downloadState]}
                    {image.failureReason && <span className="muted"> — {image.failureReason}</span>}
                  </li>
                ))}
              </ul>
            </>
          )}
          <h3>Attempts</h3>
          {attempts.length === 0 ? (
            <p className="muted">No request sent yet.</p>
          ) : (
            <ol className="attempts">
              {attempts.map((attempt) => (
                <li key={attempt.id}>
                  <p>
                    <strong>
                      {detail.kind === 'video'
                        ? attemptOutcomeWords(attempt.outcome, 'video')
                        : (attempt.outcomeText ?? attemptOutcomeWords(attempt.outcome))}
                    </strong>
                    {attempt.httpStatus !== null && <> · HTTP {attempt.httpStatus}</>} ·{' '}
                    {formatTime(attempt.startedAt)}
                    {attempt.endedAt !== null && (
                      <> · {formatDuration(attempt.endedAt - attempt.startedAt)}</>
                    )}
                  </p>
                  {attempt.errorMessage && attempt.errorMessage !== detail.errorMessage && (
                    <p className="attempt-error">{attempt.errorMessage}</p>
                  )}
                  <CopyRow label="Request id" value={attempt.requestId} />
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </aside>
  );
}

function CopyRow({ label, value }: { label: string; value: string | null }) {
  if (!value) return null;
  return (
    <p className="copy-row">
      <span className="muted">{label}</span> <code>{value}</code>
      <button
        type="button"
        className="ghost small"
        aria-label={`Copy ${label.toLowerCase()} ${value}`}
        onClick={() =>
          copyText(value).then(
            () => toast.success('Copied.'),
            (e: unknown) => toast.error(errorMessage(e)),
          )
        }
      >
        Copy
      </button>
    </p>
  );
}

/** The job's own columns first, then whatever else the request carried. */
function paramsOf(detail: JobDetail): Array<[string, unknown]> {
  const own: Array<[string, unknown]> = [
    ['model', detail.model],
    ['size', detail.size],
    // a video job makes one video: its n says nothing
    ['n', detail.kind === 'video' ? null : detail.n],
    ['seed', detail.seed],
  ];
  const shown = own.filter(([, value]) => value !== null);
  const keys = new Set(shown.map(([key]) => key));
  return [...shown, ...Object.entries(detail.params).filter(([key]) => !keys.has(key))];
}

/** An image's download state in words. */
const DOWNLOAD_WORDS: Record<JobDetail['images'][number]['downloadState'], string> = {
  pending: 'waiting to download',
  downloading: 'downloading',
  done: 'saved',
  failed: 'download failed',
};
