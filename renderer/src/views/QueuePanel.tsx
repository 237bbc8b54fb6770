import { useShallow } from 'zustand/react/shallow';
import { selectOverall, selectQueueStatus } from '../store/selectors.ts';
import { useAppStore } from '../store/react.ts';

const STATUS_TEXT = {
  loading: 'Loading…',
  running: 'Running',
  stopped: 'Not running',
  paused: 'Paused',
} as const;

/** The queue: running or paused (and why), overall progress, resume or pause. */
export function QueuePanel() {
  const status = useAppStore(selectQueueStatus);
  const paused = useAppStore((s) => s.paused);
  const runner = useAppStore((s) => s.runner);
  const overall = useAppStore(useShallow(selectOverall));
  const resumeQueue = useAppStore((s) => s.resumeQueue);
  const pauseQueue = useAppStore((s) => s.pauseQueue);

  return (
    <section className="panel" aria-labelledby="queue-heading">
      <h2 id="queue-heading">Queue</h2>
      <p className={`queue-status queue-${status}`} role="status">
        <strong>{STATUS_TEXT[status]}</strong>
        {paused && <span className="queue-reason">: {paused.reason}</span>}
        {runner && (
          <span className="queue-runner">
            {' '}
            (run by process {runner.pid} on {runner.host})
          </span>
        )}
      </p>
      <div className="queue-actions">
        {paused ? (
          <button type="button" onClick={() => void resumeQueue()}>
            Resume
          </button>
        ) : (
          status === 'running' && (
            <button type="button" onClick={() => void pauseQueue()}>
              Pause
            </button>
          )
        )}
      </div>
      {overall && (
        <div className="progress">
          <progress
            aria-label="Jobs finished"
            max={Math.max(overall.total, 1)}
            value={overall.done}
          />
          <p>
            {overall.done.toLocaleString()} / {overall.total.toLocaleString()} jobs
            {overall.failed > 0 && <> · {overall.failed.toLocaleString()} failed</>} ·{' '}
            {overall.jobsPerSecond.toFixed(1)} jobs/s
          </p>
        </div>
      )}
    </section>
  );
}
