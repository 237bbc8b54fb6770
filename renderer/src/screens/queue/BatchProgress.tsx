import type { BatchSummary } from '../../data/types.ts';
import { formatCount } from '../../format.ts';

const SEGMENTS = [
  { key: 'succeeded', label: 'succeeded' },
  { key: 'failed', label: 'failed' },
  { key: 'canceled', label: 'canceled' },
  { key: 'running', label: 'running' },
  { key: 'queued', label: 'queued' },
] as const;

/** The batch's jobs by state, for the bar and its text (running includes waiting retries). */
export function segmentsOf(batch: BatchSummary) {
  const { jobs } = batch;
  const value = {
    succeeded: jobs.succeeded,
    failed: jobs.failed,
    canceled: jobs.canceled,
    running: jobs.running + jobs.retrying,
    queued: jobs.queued,
  };
  return SEGMENTS.map((s) => ({ ...s, count: value[s.key] }));
}

/** A bar by state, with its text equivalent for screen readers. */
export function BatchProgress({ batch }: { batch: BatchSummary }) {
  const segments = segmentsOf(batch);
  const total = Math.max(batch.jobCount, 1);
  const text = segments
    .filter((s) => s.count > 0)
    .map((s) => `${formatCount(s.count)} ${s.label}`)
    .join(', ');
  return (
    <div className="state-bar" role="img" aria-label={text || 'no jobs'}>
      {segments.map((s) =>
        s.count > 0 ? (
          <span
            key={s.key}
            className={`seg seg-${s.key}`}
            style={{ width: `${(s.count / total) * 100}%` }}
          />
        ) : null,
      )}
    </div>
  );
}
