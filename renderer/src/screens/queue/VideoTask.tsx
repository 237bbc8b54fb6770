import type { JobSummary } from '../../data/types.ts';
import { formatTime } from '../../format.ts';
import { useClock } from './clock.ts';
import {
  elapsedOf,
  formatElapsed,
  isUnderWay,
  platformText,
  platformWord,
  type VideoStatus,
} from './video-status.ts';

/**
 * A video job's platform state beside its queue state, in its row: the phase with its
 * progress, the elapsed time (ticking while the task runs), "overdue: checking" past its usual
 * time.
 */
export function VideoChips({
  video,
  state,
  withElapsed = true,
}: {
  video: VideoStatus;
  state: JobSummary['state'];
  withElapsed?: boolean;
}) {
  const now = useClock(withElapsed && isUnderWay(video, state));
  // a job done in the queue is done on the platform: its state chip says it once
  const text = video.phase === 'succeeded' && state === 'succeeded' ? null : platformText(video);
  const elapsed = elapsedOf(video, state, now);
  const word = platformWord(video);
  const progress = video.phase === 'in-progress' ? video.progress : null;
  return (
    <>
      {text && (
        <span
          className={`chip video-chip video-${video.phase}`}
          title={word ? `The platform says ${word}` : undefined}
          style={
            progress === null
              ? undefined
              : ({
                  '--progress': `${Math.min(100, Math.max(0, progress))}%`,
                } as React.CSSProperties)
          }
        >
          {text}
          {video.phase === 'pending' && word ? ` (${word})` : ''}
        </span>
      )}
      {video.overdue && isUnderWay(video, state) && (
        <span className="chip video-overdue">overdue: checking</span>
      )}
      {withElapsed && elapsed !== null && (
        <span className="video-elapsed" aria-label={`Elapsed ${formatElapsed(elapsed)}`}>
          {formatElapsed(elapsed)}
        </span>
      )}
    </>
  );
}

/** The task in a job's details: where it stands, when, and the ids support asks for. */
export function VideoTaskDetails({
  video,
  state,
  model,
  copyRow,
}: {
  video: VideoStatus;
  state: JobSummary['state'];
  model: string;
  copyRow: (label: string, value: string | null) => React.ReactNode;
}) {
  const now = useClock(isUnderWay(video, state));
  const elapsed = elapsedOf(video, state, now);
  const word = platformWord(video);
  const rows: Array<[string, string]> = [
    ['On the platform', `${platformText(video) ?? 'not submitted yet'}${word ? ` (${word})` : ''}`],
  ];
  if (video.submittedAt !== null) rows.push(['Submitted', formatTime(video.submittedAt)]);
  if (video.checkedAt !== null) rows.push(['Last checked', formatTime(video.checkedAt)]);
  if (elapsed !== null) rows.push(['Elapsed', formatElapsed(elapsed)]);
  if (video.overdueSince !== null) rows.push(['Overdue since', formatTime(video.overdueSince)]);
  return (
    <section className="video-task" aria-label="Video task">
      <h3>Video task</h3>
      <dl className="details-params">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {video.overdue && isUnderWay(video, state) && (
        <p className="notice notice-warning video-overdue-note">
          <strong>Overdue: checking.</strong> {model} usually takes less. Atelier keeps asking about
          the task, less often; it is paid for and may still finish, so it is never submitted again
          by itself. Cancel stops the checks.
        </p>
      )}
      {/* the submission's own ids are the job's request ids, below */}
      {copyRow('Task id', video.taskId)}
      {copyRow('Last check id', video.checkRequestId)}
    </section>
  );
}
