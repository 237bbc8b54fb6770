import { ApiError } from '../http.ts';
import type { Ledger } from '../ledger.ts';
import { renderClip } from './clip.ts';
import { endTime, snapshotAt, type TaskSnapshot, type VideoTask } from './tasks.ts';

export function taskNotFound(id: string): ApiError {
  return new ApiError(
    404,
    'invalid_request_error',
    'task_not_found',
    `No video task "${id}" exists for this API key. Use the id returned when the task was submitted, with the same key.`,
  );
}

/**
 * The video tasks of one simulator. Bills each task when it ends: settles the pre-deduction on
 * SUCCESS, refunds it on FAILURE — at the end time (timer) or at the first look after it.
 */
export class VideoTaskStore {
  private readonly tasks = new Map<string, VideoTask>();
  private readonly ledger: Ledger;
  /** The simulator's clock (tests move it to make a task run long, or finish). */
  readonly now: () => number;

  constructor(ledger: Ledger, now: () => number = Date.now) {
    this.ledger = ledger;
    this.now = now;
  }

  add(task: VideoTask): void {
    this.tasks.set(task.id, task);
    this.billAtEnd(task);
  }

  /**
   * Bills the task when its time is up, even if nobody looks. A timer may fire a millisecond
   * before the clock reaches the end time (the event loop's clock lags Date.now()), so an
   * unfinished task arms the timer again. (A look at a task bills it too, whatever the clock.)
   */
  private billAtEnd(task: VideoTask): void {
    const timer = setTimeout(
      () => {
        if (!task.billed && this.snapshot(task).status === 'IN_PROGRESS') this.billAtEnd(task);
      },
      Math.max(1, endTime(task) - this.now()),
    );
    // A pending task must not keep the process (or a test run) alive.
    timer.unref();
  }

  /** The task, if it exists and belongs to `key`; otherwise the 404 of an unknown id. */
  get(id: string, key: string): VideoTask {
    const task = this.tasks.get(id);
    if (!task || task.ownerKey !== key) throw taskNotFound(id);
    return task;
  }

  /** Forgets a task whose submission never reached the client, refunding it. */
  discard(task: VideoTask): void {
    this.tasks.delete(task.id);
    if (!task.billed) this.ledger.refund(task.entry);
    task.billed = true;
  }

  snapshot(task: VideoTask, now = this.now()): TaskSnapshot {
    const snap = snapshotAt(task, now);
    if (!task.billed && this.tasks.has(task.id)) {
      if (snap.status === 'SUCCESS') {
        this.ledger.settle(task.entry, task.entry.preDeducted, task.seconds);
        task.billed = true;
      } else if (snap.status === 'FAILURE') {
        this.ledger.refund(task.entry);
        task.billed = true;
      }
    }
    return snap;
  }

  /** The MP4 of a finished task, rendered once. */
  content(task: VideoTask): Promise<Buffer> {
    task.content ??= renderClip(task.prompt, task.size, task.seconds);
    return task.content;
  }
}
