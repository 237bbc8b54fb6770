import { useEffect, useRef, useState } from 'react';
import { navigate } from '../../frame/navigation.ts';
import { useAppStore } from '../../store/react.ts';
import type { BatchSummary } from '../../store/state.ts';
import type { ConfirmRequest } from '../../views/ConfirmDialog.tsx';
import { groupFailures, isRateLimitCode, type FailureGroup } from './failure-groups.ts';
import { formatCount, plural } from '../../format.ts';
import { RetryAnywayWarning } from './retry-warning.tsx';
import { runAction } from '../../views/run-action.ts';

/** Details are reloaded at most this often while the batch's counts change. */
const RELOAD_MS = 1500;

interface Extra {
  diskFull: number;
  rateLimited: number;
}

/** The batch's failures grouped by what happened, each with what to do and a button doing it. */
export function FailureGroups({
  batch,
  confirm,
  showFailed,
}: {
  batch: BatchSummary;
  confirm: (request: ConfirmRequest) => void;
  showFailed: () => void;
}) {
  const detail = useAppStore((s) => s.batchDetails.get(batch.id));
  const loadBatchDetail = useAppStore((s) => s.loadBatchDetail);
  const countDownloadFailures = useAppStore((s) => s.countDownloadFailures);
  const failedJobsSample = useAppStore((s) => s.failedJobsSample);
  const retryBatch = useAppStore((s) => s.retryBatch);
  const [extra, setExtra] = useState<Extra>({ diskFull: 0, rateLimited: 0 });
  const failed = batch.jobs.failed;
  const downloadsFailed = batch.downloads.failed;
  const settled = batch.jobs.succeeded + failed;

  const lastLoad = useRef(-Infinity);
  const exhausted = detail?.failures['retries-exhausted'] ?? 0;

  // a throttle, not a debounce: a busy batch still gets its groups refreshed as it runs
  useEffect(() => {
    const timer = setTimeout(
      () => {
        lastLoad.current = Date.now();
        void loadBatchDetail(batch.id).catch(() => undefined);
        void Promise.all([
          downloadsFailed > 0 ? countDownloadFailures(batch.id, ['disk-full']) : 0,
          exhausted > 0 ? failedJobsSample(batch.id, ['retries-exhausted']) : [],
        ])
          .then(([diskFull, sample]) =>
            setExtra({
              diskFull,
              rateLimited: sample.filter((job) => isRateLimitCode(job.errorCode)).length,
            }),
          )
          .catch(() => undefined);
      },
      Math.max(0, lastLoad.current + RELOAD_MS - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [batch.id, failed, downloadsFailed, settled, exhausted]);

  if (!detail) return null;
  const groups = groupFailures({
    failures: detail.failures,
    rateLimited: extra.rateLimited,
    partial: detail.partial,
    downloadsFailed,
    expiredLinks: detail.expiredLinks,
    diskFull: extra.diskFull,
  });
  if (groups.length === 0) return null;

  const act = (group: FailureGroup) => {
    switch (group.action) {
      case 'retry-failed':
        return void runAction(
          () => retryBatch({ batchId: batch.id, failed: true }),
          (r) => `Retrying ${plural(r.failed, 'failed job')}.`,
        );
      case 'retry-downloads':
        return void runAction(
          () => retryBatch({ batchId: batch.id, downloads: true }),
          (r) => `Retrying ${plural(r.downloads, 'download')}: no new generation.`,
        );
      case 'top-up':
        return void runAction(
          () => retryBatch({ batchId: batch.id, partial: true }),
          (r) => `Asked for ${plural(r.topUps.images, 'missing image')}.`,
        );
      case 'retry-anyway':
        return confirm({
          title: `Retry ${plural(group.count, 'uncertain job')} anyway?`,
          body: <RetryAnywayWarning count={group.count} />,
          confirmLabel: 'Retry anyway',
          danger: true,
          onConfirm: () =>
            void runAction(
              () => retryBatch({ batchId: batch.id, uncertain: true }),
              (r) => `Sent ${plural(r.uncertain, 'uncertain job')} again.`,
            ),
        });
      case 'open-settings':
        return navigate('settings');
      case 'show-jobs':
        return showFailed();
    }
  };

  return (
    <section className="failures" aria-labelledby="failures-heading">
      <h2 id="failures-heading">What failed</h2>
      <ul>
        {groups.map((group) => (
          <li key={group.id} className={`failure failure-${group.id}`} aria-label={group.title}>
            <div>
              <p className="failure-title">
                <strong>{group.title}</strong>{' '}
                <span className="failure-count">{formatCount(group.count)}</span>
              </p>
              <p className="muted">{group.advice}</p>
            </div>
            <button type="button" className="ghost" onClick={() => act(group)}>
              {group.actionLabel}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
