import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventBatch } from '../../../shared/api/events.ts';
import type { JobState } from '../../../shared/jobs/states.ts';
import {
  EventHub,
  type HubFeed,
  type ImageMark,
  type VideoChange,
} from '../../../main/core/app/event-hub.ts';
import { NO_SPEND } from '../../support/spend-fixtures.ts';
import { encodeCursor } from '../../../main/core/app/cursor.ts';

const zeroJobs = { queued: 0, running: 0, retrying: 0, succeeded: 0, failed: 0, canceled: 0 };
const zeroDownloads = { pending: 0, downloading: 0, done: 0, failed: 0 };

/** An in-memory queue: jobs of batches, a transition log, images written. */
class FakeFeed implements HubFeed {
  transitions: Array<{ id: number; jobId: number; batchId: number; to: JobState }> = [];
  images: Array<{
    id: number;
    jobId: number;
    batchId: number;
    relPath: string;
    thumbRelPath: null;
    doneAt: number;
  }> = [];
  jobs = new Map<number, { batchId: number; state: JobState }>();
  /** Video jobs' platform progress, by job. */
  progressOf = new Map<number, number>();
  reads = 0;

  addJobs(batchId: number, ids: number[]): void {
    for (const id of ids) this.jobs.set(id, { batchId, state: 'queued' });
  }
  move(jobId: number, to: JobState): void {
    const job = this.jobs.get(jobId)!;
    job.state = to;
    this.transitions.push({ id: this.transitions.length + 1, jobId, batchId: job.batchId, to });
  }
  write(jobId: number, doneAt: number): void {
    const job = this.jobs.get(jobId)!;
    const id = this.images.length + 1;
    this.images.push({
      id,
      jobId,
      batchId: job.batchId,
      relPath: `b/${id}.png`,
      thumbRelPath: null,
      doneAt,
    });
  }
  lastTransitionId() {
    return this.transitions.length;
  }
  transitionsSince(afterId: number, limit: number, upTo = Infinity) {
    this.reads++;
    return this.transitions.filter((t) => t.id > afterId && t.id <= upTo).slice(0, limit);
  }
  lastImageMark(): ImageMark {
    const last = this.images.at(-1);
    return last ? { doneAt: last.doneAt, id: last.id } : { doneAt: 0, id: 0 };
  }
  imagesWrittenSince(after: ImageMark, limit: number) {
    return this.images
      .filter((i) => i.doneAt > after.doneAt || (i.doneAt === after.doneAt && i.id > after.id))
      .slice(0, limit);
  }
  counts(batchId: number) {
    const jobs = { ...zeroJobs };
    for (const job of this.jobs.values()) if (job.batchId === batchId) jobs[job.state]++;
    return jobs;
  }
  batchCounts(ids: readonly number[]) {
    return ids.map((id) => ({
      id,
      jobs: this.counts(id),
      downloads: zeroDownloads,
      spent: NO_SPEND,
    }));
  }
  openBatches() {
    return [...new Set([...this.jobs.values()].map((j) => j.batchId))].filter(
      (id) => this.finishedBatch(id) === null,
    );
  }
  finishedBatch(id: number) {
    const jobs = this.counts(id);
    if (jobs.queued + jobs.running + jobs.retrying > 0) return null;
    return {
      batchId: id,
      name: `batch ${id}`,
      jobs,
      failures: {},
      downloads: zeroDownloads,
      partial: 0,
    };
  }
  videos(ids: readonly number[]): VideoChange[] {
    return ids
      .filter((id) => this.progressOf.has(id))
      .map((jobId) => ({
        jobId,
        batchId: this.jobs.get(jobId)!.batchId,
        state: this.jobs.get(jobId)!.state,
        phase: 'in-progress' as const,
        platformStatus: 'IN_PROGRESS',
        progress: this.progressOf.get(jobId)!,
        taskId: `video_${jobId}`,
        requestId: null,
        upstreamRequestId: null,
        checkRequestId: null,
        submittedAt: 0,
        checkedAt: now,
        elapsedMs: now,
        overdue: false,
        overdueSince: null,
      }));
  }
  runningVideos() {
    return [...this.progressOf.keys()].filter((id) => this.jobs.get(id)!.state === 'running');
  }
  progress() {
    return {
      jobs: zeroJobs,
      downloads: zeroDownloads,
      inFlight: 0,
      downloading: 0,
      jobsPerSecond: 0,
      requestsSent: 0,
      imagesWritten: this.images.length,
      bytesWritten: 0,
      spentToday: NO_SPEND,
      paused: null,
    };
  }
}

let now = 0;
beforeEach(() => {
  vi.useFakeTimers();
  now = 0;
});
afterEach(() => vi.useRealTimers());

function advance(ms: number): void {
  now += ms;
  vi.advanceTimersByTime(ms);
}

function collect(hub: EventHub, cursor: string | null = null): EventBatch[] {
  const got: EventBatch[] = [];
  hub.subscribe(cursor, (batch) => got.push(batch));
  return got;
}

const changesIn = (batches: EventBatch[]) =>
  batches.flatMap((b) =>
    b.events.flatMap((e) => (e.type === 'jobs.changed' ? e.payload.changes : [])),
  );

const videosIn = (batches: EventBatch[]) =>
  batches.flatMap((b) =>
    b.events.flatMap((e) => (e.type === 'videos.changed' ? [e.payload.jobs] : [])),
  );

describe('EventHub: video jobs', () => {
  it('coalesces progress checks into one event per window, each job as it is now', async () => {
    const feed = new FakeFeed();
    feed.addJobs(1, [1, 2, 3]);
    feed.move(1, 'running');
    feed.move(2, 'running');
    const hub = new EventHub({ feed, now: () => now });
    const got = collect(hub);
    await Promise.resolve();
    advance(100);
    for (let p = 0; p <= 50; p += 10) {
      feed.progressOf.set(1, p);
      feed.progressOf.set(2, p / 2);
      hub.videosChanged([1, 2]);
      advance(10);
    }
    advance(100);
    const deliveries = videosIn(got);
    expect(deliveries.length).toBeLessThanOrEqual(2);
    expect(deliveries.at(-1)!.map((v) => [v.jobId, v.progress])).toEqual([
      [1, 50],
      [2, 25],
    ]);
  });

  it('tells a new subscriber where every running video job stands', async () => {
    const feed = new FakeFeed();
    feed.addJobs(1, [1, 2]);
    feed.move(1, 'running');
    feed.move(2, 'running');
    feed.move(2, 'succeeded');
    feed.progressOf.set(1, 40).set(2, 100);
    const hub = new EventHub({ feed, now: () => now });
    const got = collect(hub);
    await Promise.resolve();
    expect(videosIn(got)).toEqual([[expect.objectContaining({ jobId: 1, progress: 40 })]]);
  });
});

describe('EventHub', () => {
  it('delivers a thousand transitions a second in about ten messages, last state per job', async () => {
    const feed = new FakeFeed();
    feed.addJobs(
      1,
      Array.from({ length: 5_000 }, (_, i) => i + 1),
    );
    const hub = new EventHub({ feed, now: () => now });
    const got = collect(hub);
    await Promise.resolve();
    expect(got).toHaveLength(1); // the first delivery: the cursor and current progress
    for (let ms = 0; ms < 1_000; ms++) {
      const job = ms * 5 + 1;
      for (let j = job; j < job + 5; j++) {
        feed.move(j, 'running');
        feed.move(j, 'succeeded');
      }
      hub.notify();
      advance(1);
    }
    advance(100);
    expect(got.length - 1).toBeLessThanOrEqual(11);
    const last = new Map(changesIn(got));
    expect(last.size).toBe(5_000);
    expect([...last.values()].every((s) => s === 'succeeded')).toBe(true);
    expect(feed.reads).toBeLessThan(30);
  });

  it('reads nothing while nobody listens, and a later client still catches up', async () => {
    const feed = new FakeFeed();
    feed.addJobs(1, [1, 2, 3]);
    const hub = new EventHub({ feed, now: () => now });
    const first: EventBatch[] = [];
    const leave = hub.subscribe(null, (batch) => first.push(batch));
    await Promise.resolve();
    const cursor = first.at(-1)!.cursor;
    // the only client leaves; commits follow
    leave();
    const before = feed.reads;
    for (let j = 1; j <= 3; j++) {
      feed.move(j, 'running');
      feed.move(j, 'succeeded');
      hub.notify();
      advance(100);
    }
    expect(feed.reads).toBe(before);
    // a client back with its cursor gets what it missed; a new one starts from now
    const back = collect(hub, cursor);
    const fresh = collect(hub);
    await Promise.resolve();
    expect(changesIn(back)).toEqual([
      [1, 'succeeded'],
      [2, 'succeeded'],
      [3, 'succeeded'],
    ]);
    expect(changesIn(fresh)).toEqual([]);
    expect(fresh[0]!.cursor).toBe(back.at(-1)!.cursor);
  });

  it('lets a client that reconnects with its cursor catch up with no gap and no duplicate', async () => {
    const feed = new FakeFeed();
    feed.addJobs(1, [1, 2, 3, 4]);
    const hub = new EventHub({ feed, now: () => now });
    const live = collect(hub);
    feed.move(1, 'running');
    hub.notify();
    advance(100);
    const cursor = live.at(-1)!.cursor;
    feed.move(1, 'succeeded');
    feed.move(2, 'running');
    feed.write(1, 500);
    hub.notify();
    advance(100);
    const late = collect(hub, cursor);
    await Promise.resolve();
    feed.move(2, 'failed');
    hub.notify();
    advance(100);
    expect(changesIn(late)).toEqual([
      [1, 'succeeded'],
      [2, 'running'],
      [2, 'failed'],
    ]);
    const images = late.flatMap((b) => b.events.filter((e) => e.type === 'images.written'));
    expect(images).toHaveLength(1);
    expect(late.at(-1)!.cursor).toBe(live.at(-1)!.cursor);
  });

  it('tells a client too far behind, or with a cursor not its own, to resync', async () => {
    const feed = new FakeFeed();
    feed.addJobs(
      1,
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    const hub = new EventHub({ feed, now: () => now, maxCatchUp: 10 });
    for (let j = 1; j <= 30; j++) feed.move(j, 'running');
    hub.notify();
    advance(100);
    const behind = collect(hub, encodeCursor([0, 0, 0]));
    const junk = collect(hub, 'not-a-cursor');
    await Promise.resolve();
    expect(behind[0]!.events.map((e) => e.type)).toEqual(['resync', 'progress']);
    expect(junk[0]!.events.map((e) => e.type)).toEqual(['resync', 'progress']);
  });

  it('announces a finished batch once, and again only after it was reopened', () => {
    const feed = new FakeFeed();
    feed.addJobs(7, [1, 2]);
    const hub = new EventHub({ feed, now: () => now });
    const got = collect(hub);
    feed.move(1, 'running');
    feed.move(1, 'succeeded');
    hub.notify();
    advance(100);
    feed.move(2, 'running');
    feed.move(2, 'failed');
    hub.notify();
    advance(100);
    hub.notify();
    advance(100);
    const finished = () => got.flatMap((b) => b.events.filter((e) => e.type === 'batch.finished'));
    expect(finished()).toHaveLength(1);
    expect(finished()[0]!.payload).toMatchObject({ batchId: 7, jobs: { succeeded: 1, failed: 1 } });
    feed.move(2, 'queued'); // retried
    feed.move(2, 'running');
    hub.notify();
    advance(100);
    feed.move(2, 'succeeded');
    hub.notify();
    advance(100);
    expect(finished()).toHaveLength(2);
  });

  it('sends a pause at once, without waiting for the interval', () => {
    const feed = new FakeFeed();
    const hub = new EventHub({ feed, now: () => now, intervalMs: 1_000 });
    const got = collect(hub);
    hub.notify();
    advance(1);
    hub.send({
      type: 'queue.paused',
      payload: { reason: 'key refused', code: 'invalid_api_key', kind: 'auth' },
    });
    advance(1);
    expect(got.flatMap((b) => b.events.map((e) => e.type))).toContain('queue.paused');
  });

  it('continues a flood bigger than one read at the next delivery', () => {
    const feed = new FakeFeed();
    feed.addJobs(
      1,
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
    const hub = new EventHub({ feed, now: () => now, chunk: 10 });
    const got = collect(hub);
    for (let j = 1; j <= 25; j++) feed.move(j, 'running');
    hub.notify();
    advance(1);
    expect(changesIn(got)).toHaveLength(10);
    advance(300);
    expect(changesIn(got)).toHaveLength(25);
  });

  it('merges the changes told between two deliveries into one event of each kind', async () => {
    const feed = new FakeFeed();
    feed.addJobs(1, [1, 2]);
    feed.addJobs(2, [3]);
    const hub = new EventHub({ feed, now: () => now, intervalMs: 1_000 });
    const got = collect(hub);
    await Promise.resolve();
    hub.batchesChanged([1]);
    hub.batchesChanged([2], [2]);
    hub.jobsUpdated([1, 2], [1]);
    hub.imagesChanged([7], [1], false);
    advance(1);
    const events = got.flatMap((b) => b.events);
    expect(events.filter((e) => e.type === 'batches.changed')).toEqual([
      { type: 'batches.changed', payload: { ids: [1, 2], deleted: [2] } },
    ]);
    expect(events.filter((e) => e.type === 'jobs.updated')).toEqual([
      { type: 'jobs.updated', payload: { ids: [1, 2], batches: [1] } },
    ]);
    expect(events.filter((e) => e.type === 'images.changed')).toEqual([
      { type: 'images.changed', payload: { ids: [7], batches: [1] } },
    ]);
    // the counts of the batches that changed come with them; not those of a deleted one
    const progress = events.filter((e) => e.type === 'progress').at(-1);
    expect(progress?.type === 'progress' && progress.payload.batches.map((b) => b.id)).toEqual([1]);
  });

  it('never merges rows told by id with batches told as a whole (ids would hide the batches)', async () => {
    const feed = new FakeFeed();
    feed.addJobs(1, [1, 2]);
    feed.addJobs(2, [3]);
    const hub = new EventHub({ feed, now: () => now, intervalMs: 1_000 });
    const got = collect(hub);
    await Promise.resolve();
    hub.imagesChanged([7], [1], false); // a download failed
    hub.imagesChanged([], [2]); // every failed download of batch 2 retried
    hub.jobsUpdated([], [2]);
    hub.jobsUpdated([1], [1]);
    advance(1);
    const events = got.flatMap((b) => b.events);
    expect(events.filter((e) => e.type === 'images.changed')).toEqual([
      { type: 'images.changed', payload: { ids: [7], batches: [1] } },
      { type: 'images.changed', payload: { ids: [], batches: [2] } },
    ]);
    expect(events.filter((e) => e.type === 'jobs.updated')).toEqual([
      { type: 'jobs.updated', payload: { ids: [1], batches: [1] } },
      { type: 'jobs.updated', payload: { ids: [], batches: [2] } },
    ]);
  });

  it("keeps the engine's download news for the next delivery, not sooner", async () => {
    const feed = new FakeFeed();
    feed.addJobs(1, [1]);
    const hub = new EventHub({ feed, now: () => now, intervalMs: 100 });
    const got = collect(hub);
    await Promise.resolve();
    hub.notify();
    advance(1);
    const before = got.length;
    hub.imagesChanged([5], [1], false);
    advance(50);
    expect(got).toHaveLength(before);
    advance(60);
    expect(got.at(-1)?.events.map((e) => e.type)).toContain('images.changed');
  });
});
