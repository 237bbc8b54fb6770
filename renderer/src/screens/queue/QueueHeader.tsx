import { useQueueState } from '../../data/app-queries.ts';
import { useConnection } from '../../data/data-context.ts';
import { formatCount, formatEta, formatRate, plural } from '../../format.ts';
import { overallOf, queueStatus } from '../../frame/queue-status.ts';
import type { ConfirmRequest } from '../../views/ConfirmDialog.tsx';
import { LimitsControl } from './LimitsControl.tsx';
import { useCancelAll, usePauseQueue, useResumeQueue } from './queue-actions.ts';

const STATUS_TEXT = {
  loading: 'Loading…',
  unknown: 'Not known while disconnected',
  running: 'Running',
  idle: 'Idle: nothing to run',
  stopped: 'Not running',
  paused: 'Paused',
} as const;

/** The whole queue: its state, overall progress, pause, resume, cancel all, and its limits. */
export function QueueHeader({ confirm }: { confirm: (request: ConfirmRequest) => void }) {
  const { data: queue } = useQueueState();
  const status = queueStatus(queue, useConnection());
  const overall = overallOf(queue?.progress);
  const paused = queue?.paused ?? null;
  const runner = queue?.runner ?? null;
  const pause = usePauseQueue();
  const resume = useResumeQueue();
  const cancelAll = useCancelAll();
  const remaining = overall ? overall.total - overall.settled : 0;

  return (
    <header className="queue-header">
      <div className="queue-title">
        <h1>Queue</h1>
        <p className={`queue-state queue-state-${status}`} role="status" aria-label="Queue status">
          {STATUS_TEXT[status]}
          {runner && (
            <span className="muted">
              {' '}
              · run by process {runner.pid} on {runner.host}
            </span>
          )}
        </p>
      </div>
      {overall && overall.total > 0 && (
        <dl className="queue-figures">
          <div>
            <dt>Done</dt>
            <dd>
              {formatCount(overall.done)} / {formatCount(overall.total)}
            </dd>
          </div>
          {overall.failed > 0 && (
            <div>
              <dt>Failed</dt>
              <dd className="failed-text">{formatCount(overall.failed)}</dd>
            </div>
          )}
          {overall.canceled > 0 && (
            <div>
              <dt>Canceled</dt>
              <dd>{formatCount(overall.canceled)}</dd>
            </div>
          )}
          <div>
            <dt>Rate</dt>
            <dd>{remaining > 0 ? formatRate(overall.jobsPerSecond) : '—'}</dd>
          </div>
          <div>
            <dt>Left</dt>
            <dd>{paused ? 'paused' : formatEta(remaining, overall.jobsPerSecond)}</dd>
          </div>
          <div>
            <dt>Requests</dt>
            <dd>{formatCount(queue?.progress.requestsSent ?? 0)}</dd>
          </div>
          <div title="Images and videos written to the library by this run of the queue">
            <dt>Saved</dt>
            <dd>{formatCount(queue?.progress.imagesWritten ?? 0)}</dd>
          </div>
        </dl>
      )}
      <div className="queue-controls">
        {paused ? (
          <button
            type="button"
            // a spending cap stops it: the banner's "Raise the cap" or "Run anyway" decide
            disabled={resume.disabled || paused.kind === 'budget'}
            title={paused.kind === 'budget' ? 'Raise the cap or run anyway, above' : undefined}
            onClick={() => void resume.run()}
          >
            Resume queue
          </button>
        ) : (
          <button
            type="button"
            className="ghost"
            disabled={status !== 'running' || pause.disabled}
            onClick={() => void pause.run('Paused by you')}
          >
            Pause queue
          </button>
        )}
        <button
          type="button"
          className="ghost danger-text"
          disabled={remaining === 0 || cancelAll.disabled}
          onClick={() =>
            confirm({
              title: 'Cancel every batch?',
              body: (
                <p>
                  {plural(remaining, 'job')} not yet finished will be canceled, requests under way
                  aborted. Finished images stay. Canceled jobs can be retried later.
                </p>
              ),
              confirmLabel: 'Cancel all',
              danger: true,
              onConfirm: () => void cancelAll.run(),
            })
          }
        >
          Cancel all…
        </button>
        <LimitsControl />
      </div>
    </header>
  );
}
