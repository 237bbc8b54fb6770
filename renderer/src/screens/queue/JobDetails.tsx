import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../../store/error-message.ts';
import type { AttemptSummary, JobDetail } from '../../store/queue-screen-slice.ts';
import { useAppStore } from '../../store/react.ts';
import { copyText } from '../../views/copy-text.ts';
import { formatDuration, formatTime } from '../../format.ts';

/** One job as support asks for it: prompt, parameters, attempts and request ids. */
export function JobDetails({ jobId, onClose }: { jobId: number; onClose: () => void }) {
  const jobDetail = useAppStore((s) => s.jobDetail);
  const jobAttempts = useAppStore((s) => s.jobAttempts);
  // reload when the job moves on (an event changed its state)
  const state = useAppStore((s) => s.jobsById.get(jobId)?.state);
  const [detail, setDetail] = useState<JobDetail | null>(null);
  const [attempts, setAttempts] = useState<AttemptSummary[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    Promise.all([jobDetail(jobId), jobAttempts(jobId)]).then(
      ([d, a]) => {
        if (!live) return;
        setDetail(d);
        setAttempts(a);
        setError(null);
      },
      (e: unknown) => live && setError(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [jobId, state, jobDetail, jobAttempts]);

  return (
    <aside
      className="job-details"
      aria-label="Job details"
      onKeyDown={(event) => event.key === 'Escape' && onClose()}
    >
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
            {detail.failureKind && <span className="chip chip-failed">{detail.failureKind}</span>}
            <span className="muted">
              {detail.tries} {detail.tries === 1 ? 'try' : 'tries'}
            </span>
          </p>
          {detail.errorMessage && <p className="details-error">{detail.errorMessage}</p>}
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
          <h3>Request ids</h3>
          <CopyRow label="Request id" value={detail.lastRequestId} />
          <CopyRow label="Upstream id" value={detail.lastUpstreamRequestId} />
          {detail.images.length > 0 && (
            <>
              <h3>Images</h3>
              <ul className="details-images">
                {detail.images.map((image) => (
                  <li key={image.id}>
                    #{image.idx + 1}: {image.downloadState}
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
                    <strong>{attempt.outcome ?? 'in flight'}</strong>
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
    ['n', detail.n],
    ['seed', detail.seed],
  ];
  const shown = own.filter(([, value]) => value !== null);
  const keys = new Set(shown.map(([key]) => key));
  return [...shown, ...Object.entries(detail.params).filter(([key]) => !keys.has(key))];
}
