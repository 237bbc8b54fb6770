import type { BatchSummary } from '../../data/types.ts';
import { formatCount } from '../../format.ts';
import { resultsOf } from './batch-state.ts';

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

/**
 * A bar by state, with its text equivalent for screen readers; under it, while not every image
 * is saved, a thin bar of the images: a job that succeeded whose download failed must not look
 * like a success.
 */
export function BatchProgress({ batch }: { batch: BatchSummary }) {
  const segments = segmentsOf(batch);
  const { downloads } = batch;
  const { one, many } = resultsOf(batch);
  const images = downloads.done + downloads.failed + downloads.pending + downloads.downloading;
  return (
    <>
      <Bar
        total={batch.jobCount}
        segments={segments.map((s) => ({ ...s, tone: s.key }))}
        none="no jobs"
      />
      {images > downloads.done && (
        <Bar
          thin
          total={images}
          segments={[
            {
              key: 'saved',
              label: `${many} saved`,
              one: `${one} saved`,
              count: downloads.done,
              tone: 'succeeded',
            },
            {
              key: 'lost',
              label: 'downloads failed',
              one: 'download failed',
              count: downloads.failed,
              tone: 'failed',
            },
            {
              key: 'waiting',
              label: `${many} to download`,
              one: `${one} to download`,
              count: downloads.pending + downloads.downloading,
              tone: 'queued',
            },
          ]}
          none={`no ${many}`}
        />
      )}
    </>
  );
}

function Bar({
  total,
  segments,
  none,
  thin,
}: {
  total: number;
  /** `label` for many, `one` (where it differs) for a count of 1: "1 download failed". */
  segments: ReadonlyArray<{
    key: string;
    label: string;
    one?: string;
    count: number;
    tone: string;
  }>;
  none: string;
  thin?: boolean;
}) {
  const text = segments
    .filter((s) => s.count > 0)
    .map((s) => `${formatCount(s.count)} ${s.count === 1 && s.one ? s.one : s.label}`)
    .join(', ');
  let start = 0;
  return (
    <div className={`state-bar${thin ? ' thin' : ''}`} role="img" aria-label={text || none}>
      {segments.map((s) => {
        const share = s.count / Math.max(total, 1);
        const left = start;
        start += share;
        // moved and sized by transform, which the compositor animates: a width would be laid
        // out again every frame of the transition, ten times a second while a batch runs
        return s.count > 0 ? (
          <span
            key={s.key}
            className={`seg seg-${s.tone}`}
            style={{ transform: `translateX(${left * 100}%) scaleX(${share})` }}
          />
        ) : null;
      })}
    </div>
  );
}
