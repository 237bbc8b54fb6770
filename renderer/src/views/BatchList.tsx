import { useShallow } from 'zustand/react/shallow';
import type { BatchSummary } from '../store/state.ts';
import { selectBatchList } from '../store/selectors.ts';
import { useAppStore } from '../store/react.ts';

/** Every listed batch with its counts (virtualized lists come with the screens). */
export function BatchList() {
  const batches = useAppStore(useShallow(selectBatchList));
  const next = useAppStore((s) => s.batchesNext);
  const loading = useAppStore((s) => s.batchesLoading);
  const loadMore = useAppStore((s) => s.loadMoreBatches);

  return (
    <section className="panel" aria-labelledby="batches-heading">
      <h2 id="batches-heading">Batches</h2>
      {batches.length === 0 ? (
        <p className="muted">{loading ? 'Loading…' : 'No batches yet.'}</p>
      ) : (
        <table className="batches">
          <thead>
            <tr>
              <th scope="col">Batch</th>
              <th scope="col">State</th>
              <th scope="col">Done</th>
              <th scope="col">Queued</th>
              <th scope="col">Running</th>
              <th scope="col">Failed</th>
              <th scope="col">Images</th>
            </tr>
          </thead>
          <tbody>
            {batches.map((batch) => (
              <BatchRow key={batch.id} batch={batch} />
            ))}
          </tbody>
        </table>
      )}
      {next !== null && (
        <button type="button" disabled={loading} onClick={() => void loadMore()}>
          Show more batches
        </button>
      )}
    </section>
  );
}

function BatchRow({ batch }: { batch: BatchSummary }) {
  const { jobs, downloads } = batch;
  const done = jobs.succeeded + jobs.failed + jobs.canceled;
  return (
    <tr>
      <th scope="row">{batch.name}</th>
      <td>{batchState(batch)}</td>
      <td>
        {done.toLocaleString()} / {batch.jobCount.toLocaleString()}
      </td>
      <td>{jobs.queued.toLocaleString()}</td>
      <td>{(jobs.running + jobs.retrying).toLocaleString()}</td>
      <td>{jobs.failed.toLocaleString()}</td>
      <td>{downloads.done.toLocaleString()}</td>
    </tr>
  );
}

function batchState(batch: BatchSummary): string {
  const { jobs, downloads } = batch;
  if (batch.paused) return batch.pauseReason ? `Held: ${batch.pauseReason}` : 'Held';
  if (jobs.running + jobs.retrying > 0 || downloads.downloading > 0) return 'Running';
  if (jobs.queued > 0 || downloads.pending > 0) return 'Waiting';
  return 'Finished';
}
