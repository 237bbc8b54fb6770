import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { JobState } from '../../../../shared/jobs/states.ts';
import { jobsKey } from '../../store/jobs-key.ts';
import { useAppStore } from '../../store/react.ts';
import type { BatchSummary, JobSummary } from '../../store/state.ts';
import type { ConfirmRequest } from '../../views/ConfirmDialog.tsx';
import { formatCount, plural } from '../../format.ts';
import { RetryAnywayWarning } from './retry-warning.tsx';
import { runAction } from '../../views/run-action.ts';
import {
  clickSelect,
  EMPTY_SELECTION,
  keepListed,
  selectAll,
  selectedInOrder,
  type SelectionState,
} from '../../views/selection.ts';

export type JobFilter = 'all' | 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled';

const FILTERS: ReadonlyArray<{ id: JobFilter; label: string; states?: JobState[] }> = [
  { id: 'all', label: 'All' },
  { id: 'queued', label: 'Queued', states: ['queued'] },
  { id: 'running', label: 'Running', states: ['running', 'retrying'] },
  { id: 'succeeded', label: 'Succeeded', states: ['succeeded'] },
  { id: 'failed', label: 'Failed', states: ['failed'] },
  { id: 'canceled', label: 'Canceled', states: ['canceled'] },
];

const ROW_HEIGHT = 56;
/** Ids left below the visible range before the next page of ids is asked for. */
const PAGE_AHEAD = 500;
/** Shortest time between two fetches of the rows coming into view. */
const RANGE_FETCH_MS = 100;
/** Rows on screen are fetched again at most this often while the batch runs. */
const REFRESH_MS = 1000;
/** A list the events said is out of date is reloaded at most this often. */
const STALE_RELOAD_MS = 1000;

function filterCount(batch: BatchSummary, filter: JobFilter): number {
  const { jobs } = batch;
  if (filter === 'all') return batch.jobCount;
  if (filter === 'running') return jobs.running + jobs.retrying;
  return jobs[filter];
}

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
  const key = jobsKey(batch.id, FILTERS.find((f) => f.id === filter)?.states);
  const list = useAppStore((s) => s.jobIdsByKey.get(key));
  const fetchIds = useAppStore((s) => s.fetchIds);
  const fetchMoreIds = useAppStore((s) => s.fetchMoreIds);
  const fetchRange = useAppStore((s) => s.fetchRange);
  const loadAllIds = useAppStore((s) => s.loadAllIds);
  const jobsError = useAppStore((s) => s.jobsError);
  const ids = list?.ids ?? [];
  const [selection, setSelection] = useState<SelectionState>(EMPTY_SELECTION);
  const parentRef = useRef<HTMLDivElement>(null);

  // a list filtered by state goes stale as jobs move; reload it, not more than once a second
  useEffect(() => {
    // new jobs (top-ups) join the unfiltered list, which no state change marks stale
    const grown = list !== undefined && filter === 'all' && list.total !== batch.jobCount;
    if (list && !list.stale && !grown) return;
    const timer = setTimeout(() => void fetchIds(key), list ? STALE_RELOAD_MS : 0);
    return () => clearTimeout(timer);
  }, [key, list, fetchIds, filter, batch.jobCount]);

  useEffect(() => setSelection((s) => keepListed(s, ids)), [ids]);

  const virtualizer = useVirtualizer({
    count: ids.length,
    getScrollElement: () => parentRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // a first guess until the element is measured (and where nothing is: tests, happy-dom)
    initialRect: { width: 800, height: 600 },
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  // a fast scroll asks for the rows in view about ten times a second, not at every frame
  const lastRangeFetch = useRef(-Infinity);
  useEffect(() => {
    if (ids.length === 0) return;
    const load = () => {
      lastRangeFetch.current = Date.now();
      void fetchRange(key, first, last + 1);
      if (list?.next && last > ids.length - PAGE_AHEAD) void fetchMoreIds(key);
    };
    const wait = lastRangeFetch.current + RANGE_FETCH_MS - Date.now();
    if (wait <= 0) return void load();
    const timer = setTimeout(load, wait);
    return () => clearTimeout(timer);
  }, [key, first, last, ids, list?.next, fetchRange, fetchMoreIds]);

  // rows on screen are fetched again as the batch moves on: tries and errors come with them
  const refreshJobs = useAppStore((s) => s.refreshJobs);
  const moved = batch.jobCount - batch.jobs.queued;
  const lastRefresh = useRef(0);
  useEffect(() => {
    const timer = setTimeout(
      () => {
        lastRefresh.current = Date.now();
        void refreshJobs(ids.slice(first, last + 1)).catch(() => undefined);
      },
      Math.max(0, lastRefresh.current + REFRESH_MS - Date.now()),
    );
    return () => clearTimeout(timer);
    // the range and the ids are read when the timer fires: only progress starts one
  }, [moved, batch.jobs.running, batch.jobs.failed]);

  const selectedIds = useMemo(() => selectedInOrder(selection, ids), [selection, ids]);
  // one handler for every row, reading the newest ids: rows keep their props and skip renders
  const idsRef = useRef(ids);
  idsRef.current = ids;
  const onRowClick = useCallback(
    (id: number, event: React.MouseEvent) => {
      setSelection((s) =>
        clickSelect(s, idsRef.current, id, {
          shift: event.shiftKey,
          mod: event.ctrlKey || event.metaKey,
        }),
      );
      setActiveJob(id);
    },
    [setActiveJob],
  );
  const total = filterCount(batch, filter);

  const onKeyDown = (event: React.KeyboardEvent) => {
    const at = activeJob === null ? -1 : ids.indexOf(activeJob);
    let next: number;
    if (event.key === 'ArrowDown') next = Math.min(ids.length - 1, at + 1);
    else if (event.key === 'ArrowUp') next = Math.max(0, at - 1);
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = ids.length - 1;
    else if (event.key === 'a' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      setSelection(selectAll(ids));
      return;
    } else if (event.key === 'Escape') {
      setSelection(EMPTY_SELECTION);
      return;
    } else return;
    event.preventDefault();
    const id = ids[next];
    if (id === undefined) return;
    setSelection((s) => clickSelect(s, ids, id, { shift: event.shiftKey }));
    setActiveJob(id);
    virtualizer.scrollToIndex(next);
  };

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
        total={total}
        onSelectAll={() =>
          void runAction(async () => setSelection(selectAll(await loadAllIds(key))))
        }
        onClear={() => setSelection(EMPTY_SELECTION)}
        onDone={() => void fetchIds(key)}
        confirm={confirm}
      />
      {jobsError && <p className="notice notice-error">{jobsError}</p>}
      {list && ids.length === 0 ? (
        <p className="muted jobs-empty">
          {filter === 'all' ? 'This batch has no jobs.' : `No ${filter} jobs in this batch.`}
        </p>
      ) : (
        <div
          ref={parentRef}
          className="job-scroll"
          role="listbox"
          aria-label="Jobs"
          aria-multiselectable
          tabIndex={0}
          aria-activedescendant={activeJob !== null ? `job-${activeJob}` : undefined}
          onKeyDown={onKeyDown}
        >
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const id = ids[item.index]!;
              return (
                <JobRow
                  key={id}
                  id={id}
                  top={item.start}
                  selected={selection.selected.has(id)}
                  active={activeJob === id}
                  onClick={onRowClick}
                />
              );
            })}
          </div>
        </div>
      )}
    </section>
  );
}

/** Memoized: a list render (a scroll frame, an event) redraws only the rows that changed. */
const JobRow = memo(function JobRow({
  id,
  top,
  selected,
  active,
  onClick,
}: {
  id: number;
  top: number;
  selected: boolean;
  active: boolean;
  onClick: (id: number, event: React.MouseEvent) => void;
}) {
  const job = useAppStore((s) => s.jobsById.get(id));
  return (
    <div
      id={`job-${id}`}
      role="option"
      aria-selected={selected}
      className={`job-row${selected ? ' selected' : ''}${active ? ' active' : ''}`}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      onClick={(event) => onClick(id, event)}
    >
      {job ? <JobCells job={job} /> : <span className="muted">Loading…</span>}
    </div>
  );
});

function JobCells({ job }: { job: JobSummary }) {
  return (
    <>
      <span className="job-pos">#{job.position}</span>
      <span className="job-main">
        <span className="job-prompt">{job.prompt}</span>
        <span className="job-meta">
          {job.model}
          {job.size && <> · {job.size}</>}
          {job.n > 1 && <> · n {job.n}</>}
          {job.tries > 0 && <> · {plural(job.tries, 'try', 'tries')}</>}
          {job.errorMessage && <span className="job-error"> · {job.errorMessage}</span>}
        </span>
      </span>
      <span className="job-state">
        <span className={`chip chip-${job.state}`}>
          {job.failureKind === 'uncertain' ? 'uncertain' : job.state}
        </span>
        {job.paused && <span className="chip">held</span>}
      </span>
    </>
  );
}

function BulkBar({
  batch,
  ids,
  total,
  onSelectAll,
  onClear,
  onDone,
  confirm,
}: {
  batch: BatchSummary;
  ids: number[];
  total: number;
  onSelectAll: () => void;
  onClear: () => void;
  onDone: () => void;
  confirm: (request: ConfirmRequest) => void;
}) {
  const jobsCommand = useAppStore((s) => s.jobsCommand);
  const retryBatch = useAppStore((s) => s.retryBatch);
  const retryJobDownloads = useAppStore((s) => s.retryJobDownloads);
  const n = ids.length;
  // a count, not the Map: the bar does not re-render each time a job's details change
  const uncertain = useAppStore((s) =>
    n === 0 ? 0 : ids.filter((id) => s.jobsById.get(id)?.failureKind === 'uncertain').length,
  );
  const run = (command: Parameters<typeof jobsCommand>[0], said: string) =>
    void runAction(
      () => jobsCommand(command, ids),
      (changed) => {
        onDone();
        return `${said}: ${plural(changed, 'job')}.`;
      },
    );

  return (
    <div className="bulk-bar" role="toolbar" aria-label="Selected jobs">
      <span className="bulk-count" aria-live="polite">
        {n === 0 ? 'None selected' : `${formatCount(n)} selected`}
      </span>
      <button type="button" className="ghost small" disabled={total === 0} onClick={onSelectAll}>
        Select all {formatCount(total)}
      </button>
      {n > 0 && (
        <>
          <button type="button" className="ghost small" onClick={onClear}>
            Clear
          </button>
          <span className="bulk-sep" aria-hidden />
          <button
            type="button"
            className="ghost small"
            onClick={() => run('front', 'Moved to the front')}
          >
            Move to front
          </button>
          <button
            type="button"
            className="ghost small"
            onClick={() => run('back', 'Moved to the back')}
          >
            Move to back
          </button>
          <button type="button" className="ghost small" onClick={() => run('hold', 'Held')}>
            Hold
          </button>
          <button type="button" className="ghost small" onClick={() => run('release', 'Released')}>
            Release
          </button>
          <button type="button" className="ghost small" onClick={() => run('retry', 'Retrying')}>
            Retry failed
          </button>
          <button
            type="button"
            className="ghost small"
            onClick={() =>
              confirm({
                title: `Retry ${plural(uncertain || n, 'job')} anyway?`,
                body: <RetryAnywayWarning count={uncertain || n} />,
                confirmLabel: 'Retry anyway',
                danger: true,
                onConfirm: () => run('retry-anyway', 'Sent again'),
              })
            }
          >
            Retry anyway…
          </button>
          <button type="button" className="ghost small" onClick={() => run('top-up', 'Topped up')}>
            Top up
          </button>
          <button
            type="button"
            className="ghost small"
            onClick={() =>
              void runAction(
                () => retryJobDownloads(ids),
                (r) => {
                  onDone();
                  return `Retrying ${plural(r.queued, 'download')}: no new generation.`;
                },
              )
            }
          >
            Retry downloads
          </button>
          <button
            type="button"
            className="ghost small danger-text"
            onClick={() =>
              confirm({
                title: `Cancel ${plural(n, 'job')}?`,
                body: <p>Those not yet finished are canceled; they can be retried later.</p>,
                confirmLabel: 'Cancel jobs',
                danger: true,
                onConfirm: () => run('cancel', 'Canceled'),
              })
            }
          >
            Cancel jobs…
          </button>
        </>
      )}
      {batch.downloads.failed > 0 && (
        <button
          type="button"
          className="ghost small bulk-downloads"
          onClick={() =>
            void runAction(
              () => retryBatch({ batchId: batch.id, downloads: true }),
              (r) => `Retrying ${plural(r.downloads, 'download')}: no new generation.`,
            )
          }
        >
          Retry {formatCount(batch.downloads.failed)} failed downloads
        </button>
      )}
    </div>
  );
}
