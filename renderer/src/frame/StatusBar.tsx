import { useAppInfo, useQueueState } from '../data/app-queries.ts';
import { useConnection } from '../data/data-context.ts';
import { formatWhole } from '../format.ts';
import { overallOf, queueStatus } from './queue-status.ts';
import { ThemeSwitch } from './ThemeSwitch.tsx';

const STATUS = {
  loading: 'Loading…',
  unknown: 'Queue state unknown',
  running: 'Running',
  idle: 'Idle',
  stopped: 'Not running',
  paused: 'Paused',
};

/** Always in view: where requests go, whether the queue runs (and why not), overall progress. */
export function StatusBar({ onShortcuts }: { onShortcuts: () => void }) {
  const { data: info } = useAppInfo();
  const { data: queue } = useQueueState();
  const connection = useConnection();
  const status = queueStatus(queue, connection);
  const overall = overallOf(queue?.progress);
  const gateway = info?.demo ? 'Demo mode' : (info?.gateway?.name ?? 'No gateway');
  const percent =
    overall && overall.total > 0 ? Math.floor((overall.settled / overall.total) * 100) : null;
  return (
    <footer className="status-bar">
      {/* (none until the app's info is in: "No gateway" while loading would be untrue) */}
      {info && (
        <span
          className={`status-gateway${info.demo ? ' status-demo' : ''}`}
          title={info.gateway?.baseUrl}
        >
          {gateway}
        </span>
      )}
      <span className={`status-queue status-${status}`} role="status" aria-label="Queue">
        {(status !== 'unknown' && pausedText(queue?.paused ?? null)) || STATUS[status]}
      </span>
      {overall && overall.total > 0 && (
        <span className="status-progress">
          <progress aria-label="Overall progress" max={overall.total} value={overall.settled} />
          <span>
            {formatWhole(overall.done)} done
            {overall.failed > 0 && ` · ${formatWhole(overall.failed)} failed`}
            {overall.canceled > 0 && ` · ${formatWhole(overall.canceled)} canceled`} /{' '}
            {formatWhole(overall.total)}
            {percent !== null && ` · ${percent} %`}
          </span>
        </span>
      )}
      <span className="status-spacer" />
      {connection !== 'live' && (
        <span
          className={`status-connection${connection === 'lost' ? ' status-lost' : ''}`}
          role="status"
          aria-label="Connection"
        >
          {CONNECTION[connection]}
        </span>
      )}
      <ThemeSwitch />
      <button type="button" className="ghost" onClick={onShortcuts} aria-label="Keyboard shortcuts">
        ?
      </button>
    </footer>
  );
}

const CONNECTION = {
  connecting: 'Connecting…',
  lost: 'Disconnected: reconnecting…',
  closed: 'Disconnected',
};

/** "Paused: the key was refused", or the reason alone when it says so itself ("Paused by you"). */
export function pausedText(paused: { reason: string } | null): string | null {
  if (!paused) return null;
  return /^paused\b/i.test(paused.reason) ? paused.reason : `Paused: ${paused.reason}`;
}
