import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { selectOverall, selectQueueStatus } from '../../store/selectors.ts';
import { useAppStore } from '../../store/react.ts';
import type { ConfirmRequest } from '../../views/ConfirmDialog.tsx';
import { formatCount, formatEta, formatRate, plural } from '../../format.ts';
import { runAction } from '../../views/run-action.ts';

const STATUS_TEXT = {
  loading: 'Loading…',
  running: 'Running',
  stopped: 'Not running',
  paused: 'Paused',
} as const;

/** The whole queue: its state, overall progress, pause, resume, cancel all, and its limits. */
export function QueueHeader({ confirm }: { confirm: (request: ConfirmRequest) => void }) {
  const status = useAppStore(selectQueueStatus);
  const overall = useAppStore(useShallow(selectOverall));
  const requestsSent = useAppStore((s) => s.progress?.requestsSent ?? 0);
  const imagesWritten = useAppStore((s) => s.progress?.imagesWritten ?? 0);
  const runner = useAppStore((s) => s.runner);
  const paused = useAppStore((s) => s.paused);
  const pauseQueue = useAppStore((s) => s.pauseQueue);
  const resumeQueue = useAppStore((s) => s.resumeQueue);
  const cancelAll = useAppStore((s) => s.cancelAll);
  const remaining = overall ? overall.total - overall.done : 0;

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
            <dd>{formatCount(requestsSent)}</dd>
          </div>
          <div>
            <dt>Images</dt>
            <dd>{formatCount(imagesWritten)}</dd>
          </div>
        </dl>
      )}
      <div className="queue-controls">
        {paused ? (
          <button type="button" onClick={() => void resumeQueue()}>
            Resume queue
          </button>
        ) : (
          <button
            type="button"
            className="ghost"
            disabled={status !== 'running'}
            onClick={() => void pauseQueue('Paused by you')}
          >
            Pause queue
          </button>
        )}
        <button
          type="button"
          className="ghost danger-text"
          disabled={remaining === 0}
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
              onConfirm: () => void runAction(cancelAll, (n) => `Canceled ${plural(n, 'job')}.`),
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

/** Concurrency and the requests-per-minute cap, applied while the queue runs. */
function LimitsControl() {
  const limits = useAppStore((s) => s.limits);
  const setLimits = useAppStore((s) => s.setLimits);
  const [concurrency, setConcurrency] = useState('');
  const [rpm, setRpm] = useState('');
  useEffect(() => {
    if (!limits) return;
    setConcurrency(String(limits.concurrency));
    setRpm(limits.requestsPerMinute === null ? '' : String(limits.requestsPerMinute));
  }, [limits]);
  if (!limits) return null;

  const apply = () => {
    const c = Number(concurrency);
    const r = rpm.trim() === '' ? null : Number(rpm);
    const change: { concurrency?: number; requestsPerMinute?: number | null } = {};
    if (Number.isInteger(c) && c >= 1 && c !== limits.concurrency) change.concurrency = c;
    if ((r === null || (Number.isInteger(r) && r > 0)) && r !== limits.requestsPerMinute) {
      change.requestsPerMinute = r;
    }
    if (Object.keys(change).length === 0) {
      setConcurrency(String(limits.concurrency));
      setRpm(limits.requestsPerMinute === null ? '' : String(limits.requestsPerMinute));
      return;
    }
    void runAction(
      () => setLimits(change),
      () => 'Limits applied.',
    );
  };
  const onKey = (event: React.KeyboardEvent) => event.key === 'Enter' && apply();

  return (
    <div className="limits" role="group" aria-label="Limits">
      <label>
        Concurrency
        <input
          type="number"
          min={1}
          max={1024}
          inputMode="numeric"
          value={concurrency}
          onChange={(e) => setConcurrency(e.target.value)}
          onBlur={apply}
          onKeyDown={onKey}
        />
      </label>
      <span className="muted pool" aria-label="Requests in flight allowed now">
        pool {limits.current}
      </span>
      <label>
        Requests/min
        <input
          type="number"
          min={1}
          inputMode="numeric"
          placeholder="no cap"
          value={rpm}
          onChange={(e) => setRpm(e.target.value)}
          onBlur={apply}
          onKeyDown={onKey}
        />
      </label>
    </div>
  );
}
