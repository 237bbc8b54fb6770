import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { selectBatchList } from '../../store/selectors.ts';
import { useAppStore } from '../../store/react.ts';
import type { BatchSummary } from '../../store/state.ts';
import { useBatchRate } from './batch-rate.ts';
import { BatchProgress } from './BatchProgress.tsx';
import type { ConfirmRequest } from '../../views/ConfirmDialog.tsx';
import { formatCount, formatEta, formatRate, plural } from '../../format.ts';
import { reorderPlan, runOrder } from './reorder.ts';
import { runAction } from '../../views/run-action.ts';

/** Batches with work in run order (drag or keyboard to reorder), then finished ones. */
export function BatchList({ confirm }: { confirm: (request: ConfirmRequest) => void }) {
  const batches = useAppStore(useShallow(selectBatchList));
  const next = useAppStore((s) => s.batchesNext);
  const loading = useAppStore((s) => s.batchesLoading);
  const loadMore = useAppStore((s) => s.loadMoreBatches);
  const batchCommand = useAppStore((s) => s.batchCommand);
  const { active, finished } = useMemo(() => runOrder(batches), [batches]);
  const order = useMemo(() => active.map((b) => b.id), [active]);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const moveTo = (id: number, to: number) =>
    void runAction(async () => {
      for (const move of reorderPlan(order, id, to)) {
        await batchCommand(move.id, move.position);
      }
    });
  const onDragEnd = ({ active: dragged, over }: DragEndEvent) => {
    if (over && dragged.id !== over.id) moveTo(Number(dragged.id), order.indexOf(Number(over.id)));
  };

  if (batches.length === 0) {
    return (
      <section className="queue-empty" aria-label="Batches">
        {loading ? (
          <p className="muted">Loading…</p>
        ) : (
          <>
            <h2>No batches yet</h2>
            <p className="muted">
              Batches you run appear here with their progress, failures and images.
            </p>
            <a className="button-link" href="#/compose">
              Compose a batch
            </a>
          </>
        )}
      </section>
    );
  }

  return (
    <section className="batch-section" aria-labelledby="batches-heading">
      <h2 id="batches-heading">Batches</h2>
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{ announcements: announcementsFor(active) }}
      >
        <SortableContext items={order} strategy={verticalListSortingStrategy}>
          <ul className="batch-list" aria-label="Batches in run order">
            {active.map((batch, index) => (
              <SortableBatch
                key={batch.id}
                batch={batch}
                index={index}
                count={active.length}
                moveTo={moveTo}
                confirm={confirm}
              />
            ))}
          </ul>
        </SortableContext>
      </DndContext>
      {finished.length > 0 && (
        <ul className="batch-list" aria-label="Finished batches">
          {finished.map((batch) => (
            <li key={batch.id} className="batch-item" aria-label={batch.name}>
              <BatchCard batch={batch} confirm={confirm} />
            </li>
          ))}
        </ul>
      )}
      {next !== null && (
        <button type="button" className="ghost" disabled={loading} onClick={() => void loadMore()}>
          Show more batches
        </button>
      )}
    </section>
  );
}

function SortableBatch(props: {
  batch: BatchSummary;
  index: number;
  count: number;
  moveTo: (id: number, to: number) => void;
  confirm: (request: ConfirmRequest) => void;
}) {
  const { batch, index, count, moveTo } = props;
  const sortable = useSortable({ id: batch.id });
  const style = {
    transform: CSS.Translate.toString(sortable.transform),
    transition: sortable.transition,
  };
  return (
    <li
      ref={sortable.setNodeRef}
      style={style}
      className={`batch-item${sortable.isDragging ? ' dragging' : ''}`}
      aria-label={batch.name}
    >
      <button
        type="button"
        className="drag-handle"
        aria-label={`Reorder ${batch.name} (space, then arrow keys)`}
        {...sortable.attributes}
        {...sortable.listeners}
      >
        ⠿
      </button>
      <BatchCard batch={batch} confirm={props.confirm}>
        <button
          type="button"
          className="ghost icon"
          aria-label={`Move ${batch.name} up`}
          disabled={index === 0}
          onClick={() => moveTo(batch.id, index - 1)}
        >
          ↑
        </button>
        <button
          type="button"
          className="ghost icon"
          aria-label={`Move ${batch.name} down`}
          disabled={index === count - 1}
          onClick={() => moveTo(batch.id, index + 1)}
        >
          ↓
        </button>
      </BatchCard>
    </li>
  );
}

function BatchCard({
  batch,
  confirm,
  children,
}: {
  batch: BatchSummary;
  confirm: (request: ConfirmRequest) => void;
  children?: React.ReactNode;
}) {
  const selected = useAppStore((s) => s.selectedBatchId === batch.id);
  const selectBatch = useAppStore((s) => s.selectBatch);
  const batchCommand = useAppStore((s) => s.batchCommand);
  const queuePaused = useAppStore((s) => s.paused !== null);
  // known for the selected batch, whose details the failures panel keeps fresh
  const requests = useAppStore((s) => (selected ? s.batchDetails.get(batch.id)?.requests : null));
  const { jobs, downloads } = batch;
  const done = jobs.succeeded + jobs.failed + jobs.canceled;
  const open = jobs.queued + jobs.running + jobs.retrying;
  const rate = useBatchRate(done);
  const state = batchState(batch);
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
          {formatCount(done)} / {formatCount(batch.jobCount)}
        </span>
      </div>
      <BatchProgress batch={batch} />
      <div className="batch-bottom">
        <span className="batch-figures">
          {jobs.failed > 0 && (
            <span className="failed-text">{formatCount(jobs.failed)} failed · </span>
          )}
          {open > 0 && queuePaused && <>queue paused · </>}
          {open > 0 && !queuePaused && rate > 0 && (
            <>
              {formatRate(rate)} · {batch.paused ? 'held' : `${formatEta(open, rate)} left`} ·{' '}
            </>
          )}
          {images > downloads.done
            ? `${formatCount(downloads.done)} / ${formatCount(images)} images`
            : plural(downloads.done, 'image')}
          {requests != null && <> · {plural(requests, 'request')} sent</>}
          {downloads.failed > 0 && (
            <span className="failed-text"> · {formatCount(downloads.failed)} downloads failed</span>
          )}
        </span>
        <span className="batch-actions">
          {children}
          {open > 0 &&
            (batch.paused ? (
              <button
                type="button"
                className="ghost"
                aria-label={`Resume ${batch.name}`}
                onClick={() => void runAction(() => batchCommand(batch.id, 'resume'))}
              >
                Resume
              </button>
            ) : (
              <button
                type="button"
                className="ghost"
                aria-label={`Pause ${batch.name}`}
                onClick={() => void runAction(() => batchCommand(batch.id, 'pause'))}
              >
                Pause
              </button>
            ))}
          {open > 0 && (
            <button
              type="button"
              className="ghost danger-text"
              aria-label={`Cancel ${batch.name}`}
              onClick={() =>
                confirm({
                  title: `Cancel “${batch.name}”?`,
                  body: (
                    <p>
                      Its {plural(open, 'unfinished job')} will be canceled and requests under way
                      aborted. Images already made stay in the library; canceled jobs can be retried
                      later.
                    </p>
                  ),
                  confirmLabel: 'Cancel batch',
                  danger: true,
                  onConfirm: () =>
                    void runAction(
                      () => batchCommand(batch.id, 'cancel'),
                      (n) => `Canceled ${plural(n ?? 0, 'job')} of “${batch.name}”.`,
                    ),
                })
              }
            >
              Cancel
            </button>
          )}
        </span>
      </div>
    </div>
  );
}

/** What a screen reader hears while a batch is dragged: names, not ids. */
function announcementsFor(batches: readonly BatchSummary[]): Announcements {
  const name = (id: UniqueIdentifier | undefined) =>
    batches.find((b) => b.id === Number(id))?.name ?? 'the batch';
  return {
    onDragStart: ({ active }) =>
      `Picked up ${name(active.id)}. Arrow keys move it, space drops it.`,
    onDragOver: ({ active, over }) =>
      over
        ? `${name(active.id)} is over ${name(over.id)}.`
        : `${name(active.id)} is over no batch.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `${name(active.id)} was dropped at ${name(over.id)}.`
        : `${name(active.id)} was dropped.`,
    onDragCancel: ({ active }) => `Moving ${name(active.id)} was canceled.`,
  };
}

function batchState(batch: BatchSummary): { text: string; tone: string } {
  const { jobs, downloads } = batch;
  if (batch.paused) {
    return { text: batch.pauseReason ? `Held: ${batch.pauseReason}` : 'Held', tone: 'paused' };
  }
  if (jobs.running + jobs.retrying > 0 || downloads.downloading > 0) {
    return { text: 'Running', tone: 'running' };
  }
  if (jobs.queued > 0 || downloads.pending > 0) return { text: 'Waiting', tone: 'waiting' };
  if (jobs.failed > 0 || downloads.failed > 0)
    return { text: 'Finished with failures', tone: 'failed' };
  return { text: 'Finished', tone: 'done' };
}
