import type { JobAction } from '../../../../shared/jobs/eligibility.ts';
import type { BatchSummary } from '../../data/types.ts';
import { formatCount, plural } from '../../format.ts';
import type { ConfirmRequest } from '../../views/ConfirmDialog.tsx';
import { EMPTY_SELECTION, selectAll, type SelectionState } from '../../views/selection.ts';
import {
  useJobsAction,
  useRetryBatch,
  useRetryJobDownloads,
  type JobsCommand,
} from './queue-actions.ts';
import { useActionable } from './queue-queries.ts';
import { RetryAnywayWarning } from './retry-warning.tsx';

/** The bar's buttons in order: what each does, through which action of the table. */
const BUTTONS: ReadonlyArray<{ command: JobsCommand; action: JobAction; label: string }> = [
  { command: 'front', action: 'move', label: 'Move to front' },
  { command: 'back', action: 'move', label: 'Move to back' },
  { command: 'hold', action: 'hold', label: 'Hold' },
  { command: 'release', action: 'release', label: 'Release' },
  { command: 'retry', action: 'retry', label: 'Retry' },
  { command: 'top-up', action: 'top-up', label: 'Top up' },
];

/**
 * What can be done to the selected jobs: only the actions that apply to some of them (the
 * service's action table counts them), each saying to how many.
 */
export function BulkBar({
  batch,
  ids,
  total,
  allIds,
  setSelection,
  confirm,
}: {
  batch: BatchSummary;
  ids: readonly number[];
  total: number;
  /** Every id of the filter once all are loaded, else null. */
  allIds: readonly number[] | null;
  setSelection: (selection: SelectionState) => void;
  confirm: (request: ConfirmRequest) => void;
}) {
  const n = ids.length;
  const counts = useActionable(batch.id, ids).data;
  return (
    <div className="bulk-bar" role="toolbar" aria-label="Selected jobs">
      <span className="bulk-count" aria-live="polite">
        {n === 0 ? 'None selected' : `${formatCount(n)} selected`}
      </span>
      <button
        type="button"
        className="ghost small"
        disabled={total === 0 || allIds === null}
        onClick={() => allIds && setSelection(selectAll(allIds))}
      >
        Select all {formatCount(total)}
      </button>
      {n > 0 && (
        <>
          <button
            type="button"
            className="ghost small"
            onClick={() => setSelection(EMPTY_SELECTION)}
          >
            Clear
          </button>
          <span className="bulk-sep" aria-hidden />
          {!counts && <span className="muted small">Counting…</span>}
          {counts && Object.values(counts).every((c) => c === 0) && (
            <span className="muted small">
              Nothing applies to {n === 1 ? 'this job' : 'these jobs'}.
            </span>
          )}
          {counts &&
            BUTTONS.map(({ command, action, label }) =>
              counts[action] > 0 ? (
                <JobsButton
                  key={command}
                  command={command}
                  ids={ids}
                  label={`${label} ${formatCount(counts[action])}`}
                />
              ) : null,
            )}
          {counts && counts['retry-anyway'] > 0 && (
            <JobsButton
              command="retry-anyway"
              ids={ids}
              label={`Retry anyway ${formatCount(counts['retry-anyway'])}…`}
              ask={(go) =>
                confirm({
                  title: `Retry ${plural(counts['retry-anyway'], 'uncertain job')} anyway?`,
                  body: <RetryAnywayWarning count={counts['retry-anyway']} />,
                  confirmLabel: 'Retry anyway',
                  danger: true,
                  onConfirm: go,
                })
              }
            />
          )}
          {counts && counts['retry-downloads'] > 0 && (
            <RetryDownloadsButton ids={ids} count={counts['retry-downloads']} />
          )}
          {counts && counts.cancel > 0 && (
            <JobsButton
              command="cancel"
              ids={ids}
              danger
              label={`Cancel ${formatCount(counts.cancel)}…`}
              ask={(go) =>
                confirm({
                  title: `Cancel ${plural(counts.cancel, 'job')}?`,
                  body: <p>Those not yet finished are canceled; they can be retried later.</p>,
                  confirmLabel: 'Cancel jobs',
                  danger: true,
                  onConfirm: go,
                })
              }
            />
          )}
        </>
      )}
      {batch.downloads.failed > 0 && <RetryBatchDownloads batch={batch} />}
    </div>
  );
}

function JobsButton({
  command,
  ids,
  label,
  danger,
  ask,
}: {
  command: JobsCommand;
  ids: readonly number[];
  label: string;
  danger?: boolean;
  /** Asks first; `go` does it. */
  ask?: (go: () => void) => void;
}) {
  const action = useJobsAction(command);
  const go = () => void action.run(ids);
  return (
    <button
      type="button"
      className={`ghost small${danger ? ' danger-text' : ''}`}
      disabled={action.disabled}
      onClick={() => (ask ? ask(go) : go())}
    >
      {label}
    </button>
  );
}

function RetryDownloadsButton({ ids, count }: { ids: readonly number[]; count: number }) {
  const retry = useRetryJobDownloads();
  return (
    <button
      type="button"
      className="ghost small"
      disabled={retry.disabled}
      onClick={() => void retry.run(ids)}
    >
      Retry downloads of {formatCount(count)}
    </button>
  );
}

function RetryBatchDownloads({ batch }: { batch: BatchSummary }) {
  const retry = useRetryBatch('downloads');
  return (
    <button
      type="button"
      className="ghost small bulk-downloads"
      disabled={retry.disabled}
      onClick={() => void retry.run(batch.id)}
    >
      Retry {formatCount(batch.downloads.failed)} failed downloads
    </button>
  );
}
