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
import { memo, useCallback, useMemo, useRef } from 'react';
import { errorMessage } from '../../data/error-message.ts';
import type { BatchSummary } from '../../data/types.ts';
import type { ConfirmRequest } from '../../views/ConfirmDialog.tsx';
import { BatchCard } from './BatchCard.tsx';
import { useReorderBatches } from './queue-actions.ts';
import { useBatches } from './queue-queries.ts';
import { runOrder } from './reorder.ts';

/** Batches with work in run order (drag or keyboard to reorder), then finished ones. */
export function BatchList({ confirm }: { confirm: (request: ConfirmRequest) => void }) {
  const { batches, loading, error, hasMore, loadingMore, loadMore } = useBatches();
  const reorder = useReorderBatches();
  const { active, finished } = useMemo(() => runOrder(batches), [batches]);
  const order = useMemo(() => active.map((b) => b.id), [active]);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  // stable, reading the newest order: a delivery re-renders only the cards whose batch moved
  const latest = useRef({ order, reorder });
  latest.current = { order, reorder };
  const moveTo = useCallback((id: number, to: number) => {
    const { order, reorder } = latest.current;
    void reorder.run({ order, id, to });
  }, []);
  const onDragEnd = ({ active: dragged, over }: DragEndEvent) => {
    if (over && dragged.id !== over.id) moveTo(Number(dragged.id), order.indexOf(Number(over.id)));
  };

  if (error && batches.length === 0) {
    return (
      <p className="notice notice-error" role="alert">
        The batches could not be read: {errorMessage(error)}
      </p>
    );
  }
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
      {hasMore && (
        <button type="button" className="ghost" disabled={loadingMore} onClick={loadMore}>
          Show more batches
        </button>
      )}
    </section>
  );
}

const SortableBatch = memo(function SortableBatch(props: {
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
});

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
