import type { Database } from 'better-sqlite3';
import { ChangeMarkQueries, changedKeys, type ChangeMarks } from '../store/change-marks.ts';
import type { EventHub } from './event-hub.ts';

export interface ForeignChangesOptions {
  db: Database;
  hub: EventHub;
  /** How often the database is asked whether another process wrote to it (1 s). */
  intervalMs?: number;
  setInterval?: (run: () => void, ms: number) => () => void;
}

/**
 * Another process on the same data folder (a second `atelier ui`, the CLI) writes the same
 * database, and tells this one's windows nothing. SQLite's `data_version` changes only for
 * other connections' commits: checked every second, a change is read as this process reads its
 * own (the transition log and the images written, through the hub) and, for what leaves no
 * log (a batch renamed, moved or held, jobs held, favourites, deletions), by comparing
 * per-batch marks with the last read, turned into the same events a change made here sends.
 */
export class ForeignChanges {
  private readonly marks: ChangeMarkQueries;
  private readonly hub: EventHub;
  private version: number;
  private last: ChangeMarks;
  private readonly stop: () => void;

  constructor(options: ForeignChangesOptions) {
    this.marks = new ChangeMarkQueries(options.db);
    this.hub = options.hub;
    this.version = this.marks.dataVersion();
    this.last = this.marks.read();
    const every = options.setInterval ?? defaultInterval;
    this.stop = every(() => this.check(), options.intervalMs ?? 1000);
  }

  /** Reads the marks again if another process committed since the last look. */
  check(): void {
    const version = this.marks.dataVersion();
    if (version === this.version) return;
    this.version = version;
    const before = this.last;
    const now = this.marks.read();
    this.last = now;
    // the other process's transitions and images written: read from the log as ours are
    this.hub.notify();
    const batches = changedKeys(before.batches, now.batches);
    if (batches.length > 0) {
      this.hub.batchesChanged(
        batches,
        batches.filter((id) => !now.batches.has(id)),
      );
    }
    const counts = changedKeys(before.counts, now.counts).filter((id) => now.batches.has(id));
    // (touched, not reopened: a finished batch whose images were deleted has not finished again)
    if (counts.length > 0) this.hub.touch(counts);
    const held = changedKeys(before.held, now.held).filter((id) => now.batches.has(id));
    if (held.length > 0) this.hub.jobsUpdated([], held);
    const favorites = changedKeys(before.favorites, now.favorites);
    const fewer = [...before.counts.keys()].filter(
      (id) => imageTotal(now.counts.get(id)) < imageTotal(before.counts.get(id)),
    );
    const images = [...new Set([...favorites, ...fewer])].filter((id) => now.batches.has(id));
    if (images.length > 0) this.hub.imagesChanged([], images);
  }

  close(): void {
    this.stop();
  }
}

/** The images a batch's counts mark holds (download states are marked with a `d`). */
function imageTotal(mark: string | undefined): number {
  let total = 0;
  for (const part of mark?.split(',') ?? []) {
    const match = /^d[a-z]+(\d+)$/.exec(part);
    if (match) total += Number(match[1]);
  }
  return total;
}

function defaultInterval(run: () => void, ms: number): () => void {
  const timer = setInterval(run, ms);
  timer.unref();
  return () => clearInterval(timer);
}
