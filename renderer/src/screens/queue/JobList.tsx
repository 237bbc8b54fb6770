import { useMemo, useState } from 'react';
import type { BatchSummary } from '../../data/types.ts';
import { errorMessage } from '../../data/error-message.ts';
import { formatCount } from '../../format.ts';
import type { ConfirmRequest } from '../../views/ConfirmDialog.tsx';
import {
  EMPTY_SELECTION,
  keepListed,
  selectedInOrder,
  type SelectionState,
} from '../../views/selection.ts';
import { BulkBar } from './BulkBar.tsx';
import { filterCount, FILTERS, statesOf, type JobFilter } from './job-filters.ts';
import { JobRows } from './JobRows.tsx';
import { useJobIds } from './queue-queries.ts';

/** The selected batch's jobs: filter, select, act in bulk; the clicked one's details beside. */
export function JobList({
  batch,
  filter,
  setFilter,
  activeJob,
  setActiveJob,
  confirm,
}: {
  batch: BatchSummary;
  filter: JobFilter;
  setFilter: (filter: JobFilter) => void;
  activeJob: number | null;
  setActiveJob: (id: number | null) => void;
  confirm: (request: ConfirmRequest) => void;
}) {
  const list = useJobIds(batch.id, statesOf(filter));
  const ids = list.data?.ids ?? NO_IDS;
  const [picked, setSelection] = useState<SelectionState>(EMPTY_SELECTION);
  // jobs that left the list (their state changed, the filter changed) leave the selection
  const selection = useMemo(() => keepListed(picked, ids), [picked, ids]);
  const selectedIds = useMemo(() => selectedInOrder(selection, ids), [selection, ids]);

  return (
    <section className="jobs" aria-labelledby="jobs-heading">
      <div className="jobs-head">
        <h2 id="jobs-heading">Jobs of “{batch.name}”</h2>
        <div className="filters" role="group" aria-label="Filter jobs by state">
          {FILTERS.map((f) => (
            <button
              key={f.id}
              type="button"
              className="chip-button"
              aria-pressed={filter === f.id}
              onClick={() => setFilter(f.id)}
            >
              {f.label} <span className="count">{formatCount(filterCount(batch, f.id))}</span>
            </button>
          ))}
        </div>
      </div>
      <BulkBar
        batch={batch}
        ids={selectedIds}
        total={filterCount(batch, filter)}
        // every id of the filter, loaded or not: the list query loads them all
        allIds={list.data?.complete ? ids : null}
        setSelection={setSelection}
        confirm={confirm}
      />
      {list.error && <p className="notice notice-error">{errorMessage(list.error)}</p>}
      {list.data && ids.length === 0 ? (
        <p className="muted jobs-empty">
          {filter === 'all' ? 'This batch has no jobs.' : `No ${filter} jobs in this batch.`}
        </p>
      ) : (
        <JobRows
          ids={ids}
          selection={selection}
          setSelection={setSelection}
          activeJob={activeJob}
          setActiveJob={setActiveJob}
        />
      )}
    </section>
  );
}

const NO_IDS: readonly number[] = [];
