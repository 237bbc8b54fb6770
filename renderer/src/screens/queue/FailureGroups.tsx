import { navigate } from '../../frame/navigation.ts';
import type { BatchSummary } from '../../data/types.ts';
import { formatCount, plural } from '../../format.ts';
import type { ConfirmRequest } from '../../views/ConfirmDialog.tsx';
import { groupFailures, type FailureGroup } from './failure-groups.ts';
import { useRetryBatch } from './queue-actions.ts';
import { useBatchDetail, useDiskFull, useRateLimited } from './queue-queries.ts';
import { RetryAnywayWarning } from './retry-warning.tsx';

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
  const detail = useBatchDetail(batch.id).data;
  const downloadsFailed = batch.downloads.failed;
  const exhausted = detail?.failures['retries-exhausted'] ?? 0;
  // the detail, the disk-full count and the rate-limited sample follow the batch's events
  const diskFull = useDiskFull(batch.id, downloadsFailed > 0).data ?? 0;
  const rateLimited = useRateLimited(batch.id, exhausted > 0).data ?? 0;
  const retryFailed = useRetryBatch('failed');
  const retryDownloads = useRetryBatch('downloads');
  const topUp = useRetryBatch('partial');
  const retryUncertain = useRetryBatch('uncertain');

  if (!detail) return null;
  const groups = groupFailures({
    failures: detail.failures,
    rateLimited,
    partial: detail.partial,
    downloadsFailed,
    expiredLinks: detail.expiredLinks,
    diskFull,
  });
  if (groups.length === 0) return null;

  const act = (group: FailureGroup) => {
    switch (group.action) {
      case 'retry-failed':
        return void retryFailed.run(batch.id);
      case 'retry-downloads':
        return void retryDownloads.run(batch.id);
      case 'top-up':
        return void topUp.run(batch.id);
      case 'retry-anyway':
        return confirm({
          title: `Retry ${plural(group.count, 'uncertain job')} anyway?`,
          body: <RetryAnywayWarning count={group.count} />,
          confirmLabel: 'Retry anyway',
          danger: true,
          onConfirm: () => void retryUncertain.run(batch.id),
        });
      case 'open-settings':
        return navigate('settings');
      case 'show-jobs':
        return showFailed();
    }
  };
  const busy = retryFailed.disabled || retryDownloads.disabled || topUp.disabled;

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
            <button
              type="button"
              className="ghost"
              disabled={busy && group.action !== 'open-settings' && group.action !== 'show-jobs'}
              onClick={() => act(group)}
            >
              {group.actionLabel}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
