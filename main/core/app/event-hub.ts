import type { ApiEvent, ApiEventOf, EventBatch } from '../../../shared/api/events.ts';
import type { EventListener, EventSource } from '../../../shared/api/types.ts';
import type { JobState } from '../../../shared/jobs/states.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';

type Payload<T extends ApiEvent['type']> = ApiEventOf<T>['payload'];
export type BatchCounts = Payload<'progress'>['batches'][number];
export type WrittenImage = Payload<'images.written'>['images'][number];
export type VideoChange = Payload<'videos.changed'>['jobs'][number];
/** Where the images written so far end: `(done_at, id)` of the last one. */
export interface ImageMark {
  doneAt: number;
  id: number;
}

/** What the hub reads: committed rows only, so nothing it sends can be taken back. */
export interface HubFeed {
  lastTransitionId(): number;
  /** In id order, after `afterId` and up to `upTo` (ids have gaps where batches were deleted). */
  transitionsSince(
    afterId: number,
    limit: number,
    upTo?: number,
  ): Array<{ id: number; jobId: number; batchId: number; to: JobState }>;
  lastImageMark(): ImageMark;
  imagesWrittenSince(after: ImageMark, limit: number): Array<WrittenImage & { doneAt: number }>;
  batchCounts(ids: readonly number[]): BatchCounts[];
  /** The batches with work left (jobs to run or images to download). */
  openBatches(): number[];
  /** The finished batch's report, or null while it has work left. */
  finishedBatch(id: number): Payload<'batch.finished'> | null;
  progress(): Omit<Payload<'progress'>, 'batches'>;
  /** These video jobs as they are now (those that no longer exist left out). */
  videos(jobIds: readonly number[]): VideoChange[];
  /** The video jobs running now (submitted or being submitted). */
  runningVideos(): number[];
}

export interface EventHubOptions {
  feed: HubFeed;
  /** Shortest time between two deliveries (default 100 ms: about ten a second). */
  intervalMs?: number;
  now?: () => number;
  /** Rows read per query. */
  chunk?: number;
  /** A client further behind than this many transitions or images is told to resync. */
  maxCatchUp?: number;
}

/** Events the hub gathers itself: read from the log, or merged from the changes it is told. */
type GatheredEvent =
  'progress' | 'jobs.changed' | 'images.written' | 'videos.changed' | ChangeEvent;
type ChangeEvent = 'images.changed' | 'jobs.updated' | 'batches.changed';
/** Events the engine or the service raise themselves, sent with the next delivery. */
type DirectEvent = Exclude<ApiEvent, { type: GatheredEvent }>;

/**
 * Rows (jobs, images) changed since the last delivery: their ids and the batches they belong
 * to, and apart from them the batches changed as a whole (told with no ids). An event with ids
 * is read as those ids only, so the two never share one: each goes out as its own event.
 */
class RowChanges {
  private readonly ids = new Set<number>();
  private readonly batches = new Set<number>();
  private readonly whole = new Set<number>();
  add(ids: readonly number[], batches: readonly number[]): void {
    if (ids.length === 0) {
      for (const id of batches) this.whole.add(id);
      return;
    }
    for (const id of ids) this.ids.add(id);
    for (const id of batches) this.batches.add(id);
  }
  get size(): number {
    return this.ids.size + this.whole.size;
  }
  take(): Array<{ ids: number[]; batches: number[] }> {
    const taken = [];
    if (this.ids.size > 0) taken.push({ ids: [...this.ids], batches: [...this.batches] });
    if (this.whole.size > 0) taken.push({ ids: [], batches: [...this.whole] });
    this.ids.clear();
    this.batches.clear();
    this.whole.clear();
    return taken;
  }
}

/** Batches changed since the last delivery, and those of them deleted. */
class ChangeSet {
  readonly ids = new Set<number>();
  readonly batches = new Set<number>();
  add(ids: readonly number[], batches: readonly number[]): void {
    for (const id of ids) this.ids.add(id);
    for (const id of batches) this.batches.add(id);
  }
  get size(): number {
    return this.ids.size + this.batches.size;
  }
  take(): { ids: number[]; batches: number[] } {
    const taken = { ids: [...this.ids], batches: [...this.batches] };
    this.ids.clear();
    this.batches.clear();
    return taken;
  }
}

/**
 * Turns the engine's stream of commits into coalesced events: however many jobs change, each
 * subscriber gets at most about ten deliveries a second, each with the last state of every
 * job that changed, the images written, fresh counts of the batches touched, and the batches
 * that finished. The transition log and the images' `done_at` make the cursor, so a client
 * that reconnects catches up from where it left off with no gap and no duplicate.
 */
export class EventHub implements EventSource {
  private readonly feed: HubFeed;
  private readonly intervalMs: number;
  private readonly now: () => number;
  private readonly chunk: number;
  private readonly maxCatchUp: number;
  private readonly listeners = new Set<EventListener>();
  private readonly open: Set<number>;
  /**
   * Nobody listened for a while: the marks and open batches were not kept up, and are read
   * again when someone subscribes. A host with no client (the CLI, a browser host with no tab
   * open) reads nothing after each commit.
   */
  private unheard = false;
  private readonly touched = new Set<number>();
  private readonly videosTouched = new Set<number>();
  private direct: DirectEvent[] = [];
  private readonly imageChanges = new RowChanges();
  private readonly jobUpdates = new RowChanges();
  /** `ids`: batches changed; `batches`: those deleted. */
  private readonly batchChanges = new ChangeSet();
  private transitionId: number;
  private imageMark: ImageMark;
  private dirty = false;
  private timer: NodeJS.Timeout | null = null;
  private lastFlush = -Infinity;
  private closed = false;

  constructor(options: EventHubOptions) {
    this.feed = options.feed;
    this.intervalMs = options.intervalMs ?? 100;
    this.now = options.now ?? Date.now;
    this.chunk = options.chunk ?? 5_000;
    this.maxCatchUp = options.maxCatchUp ?? 50_000;
    this.transitionId = this.feed.lastTransitionId();
    this.imageMark = this.feed.lastImageMark();
    this.open = new Set(this.feed.openBatches());
  }

  /** The cursor a client holding everything delivered so far would have. */
  cursor(): string {
    return encodeCursor([this.transitionId, this.imageMark.doneAt, this.imageMark.id]);
  }

  /** Something was committed: read it with the next delivery. */
  notify(): void {
    this.dirty = true;
    this.schedule(false);
  }

  /** These batches have work again (created, retried, downloads retried). */
  reopen(batchIds: readonly number[]): void {
    for (const id of batchIds) {
      this.open.add(id);
      this.touched.add(id);
    }
    this.notify();
  }

  /** These batches' counts changed with no job moving (images deleted): fresh counts next. */
  touch(batchIds: readonly number[]): void {
    for (const id of batchIds) this.touched.add(id);
    this.notify();
  }

  /** What the platform said of these video jobs was recorded: their status with the next delivery. */
  videosChanged(jobIds: readonly number[]): void {
    for (const id of jobIds) this.videosTouched.add(id);
    this.schedule(false);
  }

  /**
   * Batches created, renamed, moved, held, released or deleted: a person's change, delivered
   * at once. Their counts come fresh with it.
   */
  batchesChanged(ids: readonly number[], deleted: readonly number[] = []): void {
    this.batchChanges.add(ids, deleted);
    for (const id of ids) if (!deleted.includes(id)) this.touched.add(id);
    this.schedule(true);
  }

  /**
   * Jobs held, released, moved or topped up, or their downloads failed or queued again (their
   * state unchanged). `urgent` for a person's change; the engine's go with the next delivery.
   */
  jobsUpdated(ids: readonly number[], batches: readonly number[], urgent = true): void {
    this.jobUpdates.add(ids, batches);
    for (const id of batches) this.touched.add(id);
    this.schedule(urgent);
  }

  /**
   * Images changed in place (a favourite, a download failed or retried). `urgent` for a
   * person's change; the engine's go with the next delivery.
   */
  imagesChanged(ids: readonly number[], batches: readonly number[], urgent = true): void {
    this.imageChanges.add(ids, batches);
    for (const id of batches) this.touched.add(id);
    this.dirty = true;
    this.schedule(urgent);
  }

  /** A rare event (pause, limits, settings, key): delivered at once, with what is pending. */
  send(event: DirectEvent): void {
    this.direct.push(event);
    this.schedule(true);
  }

  subscribe(cursor: string | null, listener: EventListener): () => void {
    if (this.closed) return () => {};
    if (this.unheard) this.catchUpUnheard();
    const first = this.catchUp(cursor);
    this.listeners.add(listener);
    // after subscribe returns, and before any later delivery (those wait for a timer)
    queueMicrotask(() => {
      if (this.listeners.has(listener)) listener(first);
    });
    return () => this.listeners.delete(listener);
  }

  /** Delivers what is pending now (tests, and before the service stops). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.lastFlush = this.now();
    if (this.listeners.size === 0) return this.dropUnheard();
    const events: ApiEvent[] = [...this.direct];
    this.direct = [];
    if (this.batchChanges.size > 0) {
      const { ids, batches: deleted } = this.batchChanges.take();
      for (const id of deleted) this.open.delete(id);
      events.push({ type: 'batches.changed', payload: { ids, deleted } });
    }
    for (const payload of this.jobUpdates.take()) events.push({ type: 'jobs.updated', payload });
    for (const payload of this.imageChanges.take()) {
      events.push({ type: 'images.changed', payload });
    }
    const { changes, batches, busy, last } = this.readTransitions(this.transitionId, this.chunk);
    this.transitionId = last;
    for (const id of batches) this.touched.add(id);
    for (const id of busy) this.open.add(id); // a retried job reopens its batch
    if (changes.length > 0) events.push({ type: 'jobs.changed', payload: { changes, batches } });
    const images = this.feed.imagesWrittenSince(this.imageMark, this.chunk);
    if (images.length > 0) {
      const lastImage = images[images.length - 1]!;
      this.imageMark = { doneAt: lastImage.doneAt, id: lastImage.id };
      for (const image of images) this.touched.add(image.batchId);
      events.push({ type: 'images.written', payload: { images: images.map(withoutDoneAt) } });
    }
    if (this.videosTouched.size > 0) {
      const jobs = this.feed.videos([...this.videosTouched]);
      this.videosTouched.clear();
      if (jobs.length > 0) events.push({ type: 'videos.changed', payload: { jobs } });
    }
    const more = changes.length > 0 && this.feed.lastTransitionId() > this.transitionId;
    if (this.dirty || this.touched.size > 0) {
      const touched = [...this.touched];
      events.push({
        type: 'progress',
        payload: { ...this.feed.progress(), batches: this.feed.batchCounts(touched) },
      });
      for (const id of touched) {
        if (!this.open.has(id)) continue;
        const finished = this.feed.finishedBatch(id);
        if (finished) {
          this.open.delete(id);
          events.push({ type: 'batch.finished', payload: finished });
        }
      }
      this.touched.clear();
      this.dirty = false;
    }
    // a flood bigger than one chunk continues at the next delivery, never in one huge message
    if (more || images.length === this.chunk) this.notify();
    if (events.length > 0) this.deliver({ cursor: this.cursor(), events });
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.listeners.clear();
  }

  private schedule(urgent: boolean): void {
    if (this.closed) return;
    if (this.listeners.size === 0) return this.dropUnheard();
    if (urgent && this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.timer) return;
    const wait = urgent ? 0 : Math.max(0, this.lastFlush + this.intervalMs - this.now());
    this.timer = setTimeout(() => this.flush(), wait);
    this.timer.unref();
  }

  /** What nobody hears is not read: the marks are read again at the next subscription. */
  private dropUnheard(): void {
    this.unheard = true;
    this.direct = [];
    this.touched.clear();
    this.dirty = false;
  }

  /**
   * The first subscriber after a silence: the marks move to where the store is now, and a
   * batch that finished meanwhile is no longer awaited (nobody heard it finish, and nobody
   * is told late).
   */
  private catchUpUnheard(): void {
    this.unheard = false;
    this.transitionId = this.feed.lastTransitionId();
    this.imageMark = this.feed.lastImageMark();
    const open = new Set(this.feed.openBatches());
    for (const id of this.open) if (!open.has(id)) this.open.delete(id);
  }

  private deliver(batch: EventBatch): void {
    for (const listener of this.listeners) listener(batch);
  }

  /** Last state per job after `afterId`, up to `limit` rows. */
  private readTransitions(afterId: number, limit: number, upTo?: number) {
    const rows = this.feed.transitionsSince(afterId, limit, upTo);
    const last = new Map<number, JobState>();
    const batches = new Set<number>();
    const busy = new Set<number>();
    for (const row of rows) {
      last.delete(row.jobId); // keeps each job where its latest change puts it
      last.set(row.jobId, row.to);
      batches.add(row.batchId);
      if (!isSettled(row.to)) busy.add(row.batchId);
    }
    return {
      changes: [...last] as Array<[number, JobState]>,
      batches: [...batches],
      busy,
      last: rows.length > 0 ? rows[rows.length - 1]!.id : afterId,
    };
  }

  /** What a client that saw everything up to `cursor` missed, up to now. */
  private catchUp(cursor: string | null): EventBatch {
    const events: ApiEvent[] = [];
    const keys = cursor === null ? null : decodeCursor(cursor, ['number', 'number', 'number']);
    if (cursor !== null) {
      const behind = keys ? this.transitionId - keys[0] : Infinity;
      if (!keys || behind < 0 || behind > this.maxCatchUp || !this.replay(keys, events)) {
        events.length = 0;
        events.push({
          type: 'resync',
          payload: {
            reason: keys
              ? 'Too much happened since this client last heard: showing the current state.'
              : 'The event cursor was not recognised: showing the current state.',
          },
        });
      }
    }
    events.push({
      type: 'progress',
      payload: { ...this.feed.progress(), batches: this.feed.batchCounts([...this.open]) },
    });
    // video jobs' platform statuses are not in the log: the running ones as they are now
    const running = this.feed.runningVideos();
    if (running.length > 0) {
      events.push({ type: 'videos.changed', payload: { jobs: this.feed.videos(running) } });
    }
    return { cursor: this.cursor(), events };
  }

  /** Replays transitions and images between `keys` and the hub's position; false if too many. */
  private replay(keys: readonly [number, number, number], events: ApiEvent[]): boolean {
    let after = keys[0];
    while (after < this.transitionId) {
      // up to what live deliveries already sent: the next live one starts there
      const { changes, batches, last } = this.readTransitions(after, this.chunk, this.transitionId);
      if (last === after) break;
      after = last;
      events.push({ type: 'jobs.changed', payload: { changes, batches } });
    }
    let mark: ImageMark = { doneAt: keys[1], id: keys[2] };
    let replayed = 0;
    while (compareMarks(mark, this.imageMark) < 0) {
      const images = this.feed
        .imagesWrittenSince(mark, this.chunk)
        .filter((image) => compareMarks(image, this.imageMark) <= 0);
      if (images.length === 0) break;
      replayed += images.length;
      if (replayed > this.maxCatchUp) return false;
      const lastImage = images[images.length - 1]!;
      mark = { doneAt: lastImage.doneAt, id: lastImage.id };
      events.push({ type: 'images.written', payload: { images: images.map(withoutDoneAt) } });
    }
    return true;
  }
}

function compareMarks(a: ImageMark, b: ImageMark): number {
  return a.doneAt - b.doneAt || a.id - b.id;
}

function withoutDoneAt({ doneAt: _doneAt, ...image }: WrittenImage & { doneAt: number }) {
  return image;
}

/** States that leave nothing for the engine to do. */
function isSettled(state: JobState): boolean {
  return state === 'succeeded' || state === 'failed' || state === 'canceled';
}
