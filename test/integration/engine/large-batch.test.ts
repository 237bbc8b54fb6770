import { afterEach, describe, expect, it } from 'vitest';
import type { EngineProgress } from '../../../main/core/engine/progress.ts';
import { baseJob, engineRig, type EngineRig } from '../../support/engine-harness.ts';

// The scheduler claims jobs only as pool slots free up: a big batch never sits in memory.

const JOBS = 5_000;
const CONCURRENCY = 8;
const DOWNLOADS = 4;

let rig: EngineRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

describe('a large batch', () => {
  it('runs to completion with no more jobs claimed or in memory than the pools hold', async () => {
    rig = await engineRig({
      start: false,
      engine: {
        concurrency: CONCURRENCY,
        downloadConcurrency: DOWNLOADS,
        responseFormat: 'b64_json',
        progressIntervalMs: 20,
      },
    });
    function* jobs() {
      for (let i = 1; i <= JOBS; i++) yield baseJob(i);
    }
    const batch = rig.store.batches.create({ name: 'big' }, jobs(), Date.now());
    const seen: EngineProgress[] = [];
    let maxInFlight = 0;
    let maxRunningRows = 0;
    let maxDownloading = 0;
    rig.engine.on('progress', (progress) => {
      seen.push(progress);
      maxInFlight = Math.max(maxInFlight, progress.inFlight);
      maxRunningRows = Math.max(maxRunningRows, progress.jobs.running);
      maxDownloading = Math.max(maxDownloading, progress.downloading);
    });
    await rig.engine.start();
    expect(await rig.engine.whenIdle()).toBe('done');

    expect(rig.store.jobs.counts(batch.id)).toMatchObject({ succeeded: JOBS, queued: 0 });
    expect(rig.engine.progress().downloads).toMatchObject({ done: JOBS, failed: 0 });
    // progress was reported all along the run, and never showed more work held than the pools
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.some((p) => p.inFlight > 0)).toBe(true);
    expect(maxInFlight).toBeLessThanOrEqual(CONCURRENCY);
    expect(maxRunningRows).toBeLessThanOrEqual(CONCURRENCY);
    // images that came as bytes may wait in the download pool's backlog, as large as the pool
    expect(maxDownloading).toBeLessThanOrEqual(2 * DOWNLOADS);
    // while it ran, most of the batch was still waiting in the database, not in the engine
    const midway = seen.find((p) => p.jobs.succeeded > JOBS / 4 && p.jobs.queued > JOBS / 4);
    expect(
      midway,
      'a progress report with a quarter done and a quarter still queued',
    ).toMatchObject({
      jobs: { succeeded: expect.any(Number), queued: expect.any(Number) },
    });
    expect(midway!.inFlight + midway!.downloading).toBeLessThanOrEqual(CONCURRENCY + 2 * DOWNLOADS);
    await rig.gateway.idle();
    expect(rig.gateway.ledger.entries()).toHaveLength(JOBS);
  }, 120_000);
});
