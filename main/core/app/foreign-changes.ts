import type { Database } from 'better-sqlite3';
import { ChangeMarkQueries, changedKeys, type ChangeMarks } from '../store/change-marks.ts';
import type { EventHub } from './event-hub.ts';

export interface ForeignChangesOptions {
  db: Database;
  hub: EventHub;
  /** How often the database is asked whether another process wrote to it (1 s). */
  intervalMs?: number;
  setInterval?: (run: () => void, ms: number) => () => void;
  /** The clock rows' `updated_at` are written with (every process of the machine shares it). */
  now?: () => number;
}

/**
 * How far before the last look a row's time may be and still be news: another process takes
 * its time before its transaction commits, so a change can be committed after a look yet be
 * dated before it.
 */
const COMMIT_MARGIN_MS = 5_000;

/**
 * Another process on the same data folder (a second `atelier ui`, the CLI) writes the same
 * database, and tells this one's windows nothing. SQLite's `data_version` changes only for
 * other connections' commits: checked every second, a change is read as this process reads its
 * own (the transition log and the images written, through the hub) and, for what leaves no
 * log, by comparing per-batch marks with the last read, turned into the same events a change
 * made here sends: a batch renamed, moved or held (`batches.changed`); jobs held, released or
 * moved (`jobs.updated` with the waiting jobs of the batch changed since the last look, by
 * their `updated_at`); favourites (`images.changed` with the images changed since). Images
 * deleted leave no row to read: `images.changed` for their batch as a whole.
 */
export class ForeignChanges {
  private readonly marks: ChangeMarkQueries;
  private readonly hub: EventHub;
  private readonly now: () => number;
  private version: number;
  private last: ChangeMarks;
  /** When the marks were last read: rows changed since then are the news of the next look. */
  private lastRead: number;
  private readonly stop: () => void;

  constructor(options: ForeignChangesOptions) {
    this.marks = new ChangeMarkQueries(options.db);
    this.hub = options.hub;
    this.now = options.now ?? Date.now;
    this.version = this.marks.dataVersion();
    this.lastRead = this.now();
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
    const since = this.lastRead - COMMIT_MARGIN_MS;
    this.lastRead = this.now();
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
    const alive = (id: number) => now.batches.has(id);
    // holds, releases and moves: which jobs, by the time they were changed (none found: all)
    const jobBatches = new Set([
      ...changedKeys(before.held, now.held),
      ...changedKeys(before.jobOrder, now.jobOrder),
    ]);
    for (const id of [...jobBatches].filter(alive)) {
      this.hub.jobsUpdated(this.marks.touchedJobs(id, since), [id]);
    }
    for (const id of changedKeys(before.favorites, now.favorites).filter(alive)) {
      this.hub.imagesChanged(this.marks.touchedImages(id, since), [id]);
    }
    // a deleted image leaves no row to read: its batch's images as a whole
    const fewer = [...before.counts.keys()].filter(
      (id) => alive(id) && imageTotal(now.counts.get(id)) < imageTotal(before.counts.get(id)),
    );
    if (fewer.length > 0) this.hub.imagesChanged([], fewer);
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
