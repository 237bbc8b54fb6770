import { useQueueState } from '../../data/app-queries.ts';
import type { BatchSummary } from '../../data/types.ts';
import { countOf, formatCount, formatEta, formatRate, plural } from '../../format.ts';
import type { ConfirmRequest } from '../../views/ConfirmDialog.tsx';
import { useShowBatchImages } from '../gallery/show-batch-images.ts';
import { spentText } from '../../views/spend-text.ts';
import { useSpendConfirm } from '../../views/SpendConfirm.tsx';
import { useBatchRate } from './batch-rate.ts';
import { batchState, openOf, resultsOf, settledOf } from './batch-state.ts';
import { BatchProgress } from './BatchProgress.tsx';
import { useCancelBatch, usePauseBatch, useResumeBatch } from './queue-actions.ts';
import { useBatchDetail } from './queue-queries.ts';
import { queueUi } from './queue-state.ts';

/** One batch: its state, progress, figures, and what can be done to it. */
export function BatchCard({
  batch,
  confirm,
  children,
}: {
  batch: BatchSummary;
  confirm: (request: ConfirmRequest) => void;
  children?: React.ReactNode;
}) {
  const selected = queueUi.useSelect((s) => s.selectedBatchId === batch.id);
  const selectBatch = queueUi.useSelect((s) => s.selectBatch);
  const queuePaused = useQueueState((queue) => queue.paused != null).data ?? false;
  const { jobs, downloads } = batch;
  const open = openOf(batch);
  const rate = useBatchRate(settledOf(batch));
  const state = batchState(batch);
  const results = resultsOf(batch);
  const spent = spentText(batch.spent, results);
  const images = downloads.done + downloads.pending + downloads.downloading + downloads.failed;

  return (
    <div className={`batch-card${selected ? ' selected' : ''}`}>
      <div className="batch-top">
        <button
          type="button"
          className="batch-name"
          aria-pressed={selected}
          aria-label={`Show jobs of ${batch.name}`}
          onClick={() => selectBatch(selected ? null : batch.id)}
        >
          {batch.name}
        </button>
        <span className={`batch-state state-${state.tone}`}>{state.text}</span>
        <span className="batch-done">
          {formatCount(jobs.succeeded)} / {formatCount(batch.jobCount)} done
        </span>
      </div>
      <BatchProgress batch={batch} />
      <div className="batch-bottom">
        <span className="batch-figures">
          {jobs.failed > 0 && (
            <span className="failed-text">{formatCount(jobs.failed)} failed · </span>
          )}
          {jobs.canceled > 0 && <>{formatCount(jobs.canceled)} canceled · </>}
          {open > 0 && queuePaused && <>queue paused · </>}
          {open > 0 && !queuePaused && rate > 0 && (
            <>
              {formatRate(rate)} · {batch.paused ? 'held' : `${formatEta(open, rate)} left`} ·{' '}
            </>
          )}
          {images > downloads.done
            ? `${formatCount(downloads.done)} / ${formatCount(images)} ${results.many}`
            : plural(downloads.done, results.one, results.many)}
          {selected && <RequestsSent id={batch.id} />}
          {downloads.failed > 0 && (
            <span className="failed-text"> · {countOf(downloads.failed, 'download')} failed</span>
          )}
          {spent && <span className="batch-spent"> · spent {spent}</span>}
        </span>
        <span className="batch-actions">
          {children}
          {downloads.done > 0 && <ImagesButton batch={batch} results={results.many} />}
          {open > 0 && <HoldButton batch={batch} />}
          {open > 0 && <CancelButton batch={batch} open={open} confirm={confirm} />}
        </span>
      </div>
    </div>
  );
}

/** Known for the selected batch, whose detail the failures panel reads. */
function RequestsSent({ id }: { id: number }) {
  const requests = useBatchDetail(id).data?.requests;
  return requests === undefined ? null : <> · {plural(requests, 'request')} sent</>;
}

/** The gallery on this batch: "Images", "Videos" or "Images and videos". */
function ImagesButton({ batch, results }: { batch: BatchSummary; results: string }) {
  const show = useShowBatchImages();
  return (
    <button
      type="button"
      className="ghost"
      aria-label={`Show the ${results} of ${batch.name}`}
      title={`Show this batch's ${results} in the gallery`}
      onClick={() => show(batch.id)}
    >
      {results[0]!.toUpperCase() + results.slice(1)}
    </button>
  );
}

function HoldButton({ batch }: { batch: BatchSummary }) {
  const pause = usePauseBatch();
  // a held batch's work starts on resume: over the threshold, the person confirms its spend
  const spendConfirm = useSpendConfirm();
  const resume = useResumeBatch((spend) => spendConfirm.ask(spend, 'Resume'));
  return batch.paused ? (
    <>
      <button
        type="button"
        className="ghost"
        aria-label={`Resume ${batch.name}`}
        disabled={resume.disabled}
        onClick={() => void resume.run(batch.id)}
      >
        Resume
      </button>
      {spendConfirm.dialog}
    </>
  ) : (
    <button
      type="button"
      className="ghost"
      aria-label={`Pause ${batch.name}`}
      disabled={pause.disabled}
      onClick={() => void pause.run(batch.id)}
    >
      Pause
    </button>
  );
}

function CancelButton({
  batch,
  open,
  confirm,
}: {
  batch: BatchSummary;
  open: number;
  confirm: (request: ConfirmRequest) => void;
}) {
  const cancel = useCancelBatch();
  return (
    <button
      type="button"
      className="ghost danger-text"
      aria-label={`Cancel ${batch.name}`}
      disabled={cancel.disabled}
      onClick={() =>
        confirm({
          title: `Cancel “${batch.name}”?`,
          body: (
            <p>
              Its {plural(open, 'unfinished job')} will be canceled and requests under way aborted.
              Images already made stay in the library; canceled jobs can be retried later.
            </p>
          ),
          confirmLabel: 'Cancel batch',
          danger: true,
          onConfirm: () => void cancel.run({ id: batch.id, name: batch.name }),
        })
      }
    >
      Cancel
    </button>
  );
}
