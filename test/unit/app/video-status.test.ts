import { describe, expect, it } from 'vitest';
import { videoStatus } from '../../../main/core/app/views.ts';
import type { Job } from '../../../main/core/store/rows.ts';
import { jobRow } from '../../support/job-row.ts';

// A video job's row as the queue shows it: the platform's phase (an unknown status is still
// pending), progress, elapsed time, overdue only while it runs.

const T0 = Date.UTC(2030, 0, 1);

function video(overrides: Partial<Job> = {}): Job {
  return jobRow({
    id: 7,
    kind: 'video',
    prompt: 'waves',
    model: 'sora-2',
    size: '720x1280',
    params: { seconds: '4' },
    state: 'running',
    lastRequestId: 'req_submit',
    lastUpstreamRequestId: 'up_submit',
    returnedN: null,
    videoTaskId: 'video_1',
    videoTaskStatus: 'IN_PROGRESS',
    videoTaskProgress: '40%',
    videoPlatformStatus: 'in_progress',
    videoSubmittedAt: T0,
    videoCheckedAt: T0 + 5_000,
    videoCheckRequestId: 'req_check',
    startedAt: T0 - 500,
    finishedAt: null,
    ...overrides,
  });
}

describe('videoStatus', () => {
  it('a task in progress: its percentage, ids and the time since it was submitted', () => {
    expect(videoStatus(video(), T0 + 90_000)).toEqual({
      phase: 'in-progress',
      platformStatus: 'in_progress',
      progress: 40,
      taskId: 'video_1',
      requestId: 'req_submit',
      upstreamRequestId: 'up_submit',
      checkRequestId: 'req_check',
      submittedAt: T0,
      checkedAt: T0 + 5_000,
      elapsedMs: 90_000,
      overdue: false,
      overdueSince: null,
    });
  });

  it.each([
    [
      { videoTaskId: null, videoTaskStatus: null, videoSubmittedAt: null, lastRequestId: null },
      'waiting',
    ],
    [{ videoTaskStatus: null }, 'submitted'],
    [{ videoTaskStatus: 'QUEUED' }, 'submitted'],
    [{ videoTaskStatus: 'IN_PROGRESS' }, 'in-progress'],
    [{ videoTaskStatus: 'SUCCESS', state: 'succeeded' as const }, 'succeeded'],
    [{ videoTaskStatus: 'FAILURE', state: 'failed' as const }, 'failed'],
    // a status Atelier does not know is still pending, never a failure
    [{ videoTaskStatus: 'UNKNOWN', videoPlatformStatus: 'rendering' }, 'pending'],
  ])('%j → %s', (fields, phase) => {
    expect(videoStatus(video(fields), T0).phase).toBe(phase);
  });

  it('before the submission nothing is claimed: no task, no request id, no elapsed time', () => {
    expect(
      videoStatus(
        video({
          videoTaskId: null,
          videoTaskStatus: null,
          videoSubmittedAt: null,
          videoTaskProgress: null,
        }),
        T0,
      ),
    ).toMatchObject({
      taskId: null,
      requestId: null,
      upstreamRequestId: null,
      elapsedMs: null,
      progress: null,
    });
  });

  it('is overdue only while it runs; the elapsed time of a finished one stops at its end', () => {
    const overdue = video({ videoOverdueAt: T0 + 60_000 });
    expect(videoStatus(overdue, T0 + 120_000)).toMatchObject({
      overdue: true,
      overdueSince: T0 + 60_000,
    });
    const done = video({
      videoOverdueAt: T0 + 60_000,
      state: 'succeeded',
      finishedAt: T0 + 200_000,
    });
    expect(videoStatus(done, T0 + 999_000)).toMatchObject({
      overdue: false,
      overdueSince: T0 + 60_000,
      elapsedMs: 200_000,
    });
  });

  it('keeps a progress the platform wrote oddly within 0–100, or none', () => {
    expect(videoStatus(video({ videoTaskProgress: '140%' }), T0).progress).toBe(100);
    expect(videoStatus(video({ videoTaskProgress: 'n/a' }), T0).progress).toBeNull();
  });
});
