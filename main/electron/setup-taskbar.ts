import type { BrowserWindow, ProgressBarOptions } from 'electron';
import type { ApiEventOf } from '../../shared/api/events.ts';
import type { EventSource } from '../../shared/api/types.ts';
import type { PauseKind } from '../../shared/jobs/pause.ts';

type ProgressPayload = ApiEventOf<'progress'>['payload'];
type BatchCounts = ProgressPayload['batches'][number];
type Counts = Pick<BatchCounts, 'jobs' | 'downloads'>;

/** What `setProgressBar` is given: -1 removes the bar. */
export interface Bar {
  progress: number;
  mode: ProgressBarOptions['mode'];
}

export const NO_BAR: Bar = { progress: -1, mode: 'none' };

/** Pauses only the person can lift (a key, a balance, an access right): shown as an error. */
const NEEDS_THE_PERSON: ReadonlySet<PauseKind> = new Set(['auth', 'balance', 'permission']);

export function workLeft({ jobs, downloads }: Counts): number {
  return jobs.queued + jobs.running + jobs.retrying + downloads.pending + downloads.downloading;
}

/**
 * The taskbar (dock) bar: the share of settled jobs over the batches of this run, while
 * work is left anywhere; paused (yellow) when the queue is paused, error (red) when the
 * pause waits for the person; no bar when idle.
 */
export function progressBar(
  overall: Counts,
  batches: Iterable<Counts>,
  paused: { kind: PauseKind } | null,
): Bar {
  if (workLeft(overall) === 0) return NO_BAR;
  let total = 0;
  let settled = 0;
  for (const { jobs } of batches) {
    total += Object.values(jobs).reduce((sum, n) => sum + n, 0);
    settled += jobs.succeeded + jobs.failed + jobs.canceled;
  }
  const progress = total === 0 ? 0 : Math.min(1, settled / total);
  if (!paused) return { progress, mode: 'normal' };
  return { progress, mode: NEEDS_THE_PERSON.has(paused.kind) ? 'error' : 'paused' };
}

/**
 * Follows `progress` events: each names only the batches it touched, so the counts of every
 * batch seen in this run are kept until the queue is idle, then forgotten.
 */
export class TaskbarProgress {
  private readonly batches = new Map<number, Counts>();
  private last: Bar | null = null;

  /** The bar after this event, or null when it did not change. */
  next(event: ProgressPayload): Bar | null {
    for (const batch of event.batches) this.batches.set(batch.id, batch);
    const bar = progressBar(event, this.batches.values(), event.paused);
    if (bar === NO_BAR) this.batches.clear();
    if (this.last && this.last.progress === bar.progress && this.last.mode === bar.mode) {
      return null;
    }
    this.last = bar;
    return bar;
  }
}

/** Keeps the window's taskbar bar in step with the queue. Returns what stops it. */
export function setupTaskbar(events: EventSource, win: BrowserWindow): () => void {
  const taskbar = new TaskbarProgress();
  return events.subscribe(null, (batch) => {
    for (const event of batch.events) {
      if (event.type !== 'progress') continue;
      const bar = taskbar.next(event.payload);
      if (bar && !win.isDestroyed()) win.setProgressBar(bar.progress, { mode: bar.mode });
    }
  });
}
