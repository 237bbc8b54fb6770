import { failedDownloadsText } from './job-words.ts';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useRef } from 'react';
import type { JobSummary } from '../../data/types.ts';
import { plural } from '../../format.ts';
import {
  clickSelect,
  EMPTY_SELECTION,
  selectAll,
  type SelectionState,
} from '../../views/selection.ts';
import { useData } from '../../data/data-context.ts';
import { keys } from '../../data/keys.ts';
import { useJob } from './queue-queries.ts';
import { VideoChips } from './VideoTask.tsx';

const ROW_HEIGHT = 56;
/** The rows on screen are asked for once the list has rested this long (not while it flies). */
export const REST_MS = 60;

/**
 * The jobs as a virtual list: only the rows on screen exist, each reading its own summary
 * (fetched together when the list rests), so 100,000 jobs scroll like ten. Memoized: a
 * delivery that moves the batch's counts does not redraw the list.
 */
export const JobRows = memo(function JobRows({
  ids,
  selection,
  setSelection,
  activeJob,
  setActiveJob,
}: {
  ids: readonly number[];
  selection: SelectionState;
  setSelection: React.Dispatch<React.SetStateAction<SelectionState>>;
  activeJob: number | null;
  setActiveJob: (id: number | null) => void;
}) {
  const parentRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: ids.length,
    getScrollElement: () => parentRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    isScrollingResetDelay: REST_MS,
    // a first guess until the element is measured (and where nothing is: tests, happy-dom)
    initialRect: { width: 800, height: 600 },
  });
  const wanted = !virtualizer.isScrolling;

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
    [setActiveJob, setSelection],
  );

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
        {virtualizer.getVirtualItems().map((item) => {
          const id = ids[item.index]!;
          return (
            <JobRow
              key={id}
              id={id}
              top={item.start}
              wanted={wanted}
              selected={selection.selected.has(id)}
              active={activeJob === id}
              onClick={onRowClick}
            />
          );
        })}
      </div>
    </div>
  );
});

interface RowProps {
  id: number;
  top: number;
  wanted: boolean;
  selected: boolean;
  active: boolean;
  onClick: (id: number, event: React.MouseEvent) => void;
}

/**
 * Memoized: a list render (a scroll frame, an event) redraws only the rows that changed. While
 * the list flies past, a row whose summary is not known is a frame only, with no query of its own.
 */
const JobRow = memo(function JobRow(props: RowProps) {
  const { queries } = useData();
  const known = queries.getQueryData(keys.job(props.id)) !== undefined;
  return props.wanted || known ? <LiveRow {...props} /> : <RowView {...props} job={undefined} />;
});

function LiveRow(props: RowProps) {
  const { data: job } = useJob(props.id, props.wanted);
  return <RowView {...props} job={job} />;
}

function RowView({
  id,
  top,
  selected,
  active,
  onClick,
  job,
}: RowProps & { job: JobSummary | null | undefined }) {
  return (
    // The listbox holds the focus and the keys (aria-activedescendant names the active row): a
    // row takes clicks only.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/interactive-supports-focus
    <div
      id={`job-${id}`}
      role="option"
      aria-selected={selected}
      className={`job-row${selected ? ' selected' : ''}${active ? ' active' : ''}`}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      onClick={(event) => onClick(id, event)}
    >
      {job ? (
        <JobCells job={job} />
      ) : (
        <span className="muted">{job === null ? 'Deleted' : 'Loading…'}</span>
      )}
    </div>
  );
}

/**
 * The job's state in a word; a prompt that succeeded but whose files did not all arrive says
 * so (a green "succeeded" would read as saved).
 */
function StateChip({ job }: { job: JobSummary }) {
  if (job.state === 'succeeded' && job.failedDownloads > 0) {
    return (
      <span className="chip chip-failed" title="The prompt succeeded; its file could not be saved">
        {failedDownloadsText(job.failedDownloads)}
      </span>
    );
  }
  return (
    <span className={`chip chip-${job.state}`}>
      {job.failureKind === 'uncertain' ? 'uncertain' : job.state}
    </span>
  );
}

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
          {job.errorMessage && (
            // red only for a failed job: one that waits keeps its last answer in amber
            <span className={job.state === 'failed' ? 'job-error' : 'job-error job-waiting'}>
              {' '}
              · {job.errorMessage}
            </span>
          )}
        </span>
      </span>
      <span className="job-state">
        <StateChip job={job} />
        {job.paused && <span className="chip">held</span>}
        {job.video && <VideoChips video={job.video} state={job.state} />}
      </span>
    </>
  );
}
