import { afterEach, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../../shared/gateway/catalogue.ts';
import {
  assertLegalPath,
  engineRig,
  jobsOf,
  type EngineRig,
} from '../../support/engine-harness.ts';
import { pollUntil } from '../../support/poll-until.ts';

// A video task past its model's usual time: still checked, less and less often, never submitted
// again by itself. The simulator and the engine share one clock the test moves; only the
// waits between checks are real (and short).

let rig: EngineRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

const MINUTE = 60_000;
const VIDEO = {
  kind: 'video' as const,
  model: 'sora-2',
  size: '720x1280',
  params: { seconds: '4' },
};
const SORA = {
  kind: 'video' as const,
  id: 'sora-2',
  seconds: ['4', '8', '12'],
  sizes: ['720x1280', '1280x720'],
  usualSeconds: 60,
};

describe('a video job past its usual time', () => {
  it('is marked overdue, keeps being checked with a growing wait, and finishes without a second submission', async () => {
    const start = Date.UTC(2030, 0, 1);
    let clock = start;
    const now = () => clock;
    rig = await engineRig({
      // the task takes ten minutes of the shared clock; its model usually takes one
      gateway: { videoDurationMs: 10 * MINUTE, now },
      engine: { now, videoPoll: { initialMs: 10, maxMs: 20, overdueMaxMs: 150 } },
      catalogue: createCatalogue([SORA]),
      start: false,
    });
    const checks: number[] = [];
    const getVideo = rig.client.getVideo;
    rig.client.getVideo = (task, options) => {
      checks.push(performance.now());
      return getVideo(task, options);
    };
    const batch = rig.batch([VIDEO]);
    await rig.engine.start();
    const [queued] = jobsOf(rig.store, batch.id);
    const job = () => rig!.store.jobs.get(queued!.id)!;
    /** Moves the clock, then waits for a check made at the new time. */
    const at = async (time: number) => {
      clock = time;
      await pollUntil(
        () => job().videoCheckedAt === time,
        `a check at +${(time - start) / 1000} s`,
      );
      return job();
    };

    await pollUntil(() => job().videoTaskId !== null, 'the task is submitted');
    expect(job()).toMatchObject({
      state: 'running',
      videoSubmittedAt: start,
      videoOverdueAt: null,
    });

    // within its usual minute: in progress, not overdue
    const early = await at(start + 30_000);
    expect(early.videoOverdueAt).toBeNull();

    // three minutes in: overdue since that check, progress as the platform says
    const late = await at(start + 3 * MINUTE);
    expect(late).toMatchObject({
      state: 'running',
      videoTaskStatus: 'IN_PROGRESS',
      videoPlatformStatus: 'IN_PROGRESS',
      videoTaskProgress: '30%',
      videoOverdueAt: start + 3 * MINUTE,
    });
    expect(late.videoCheckRequestId).toMatch(/^req_[0-9a-f]+$/);
    expect(late.videoCheckRequestId).not.toBe(late.lastRequestId);

    // checked on, the wait growing past the ordinary longest (20 ms) towards 150 ms
    const overdueFrom = checks.length;
    await pollUntil(() => checks.length >= overdueFrom + 7, 'seven more checks');
    const gaps = checks.slice(overdueFrom).map((t, i, all) => (i === 0 ? 0 : t - all[i - 1]!));
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(100);
    // the overdue mark keeps the time it began
    expect(job().videoOverdueAt).toBe(start + 3 * MINUTE);

    // the platform finishes at last: the video is fetched; one submission in all
    clock = start + 11 * MINUTE;
    expect(await rig.engine.whenIdle()).toBe('done');
    expect(job()).toMatchObject({ state: 'succeeded', videoTaskStatus: 'SUCCESS', tries: 1 });
    expect(rig.store.images.listForJob(queued!.id)).toMatchObject([{ downloadState: 'done' }]);
    expect(rig.gateway.ledger.entries()).toHaveLength(1);
    expect(rig.store.attempts.listForJob(queued!.id)).toHaveLength(1);
    expect(assertLegalPath(rig.store, queued!.id)).toEqual(['queued→running', 'running→succeeded']);
  });
});
