import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../../main/simulator/ledger.ts';
import {
  endTime,
  SIMULATED_QUOTA_REASON,
  snapshotAt,
  TASK_FAILURES,
  type TaskFailure,
  type VideoTask,
} from '../../../main/simulator/video/tasks.ts';

function task(failure: TaskFailure | null = null): VideoTask {
  return {
    id: 'video_1',
    ownerKey: 'sk-a',
    model: 'sora-2',
    prompt: 'p',
    seconds: 4,
    size: '720x1280',
    submittedAt: 1_000_000,
    durationMs: 1000,
    failure,
    entry: {} as LedgerEntry,
    billed: false,
    content: null,
  };
}

const at = (t: VideoTask, ms: number) => snapshotAt(t, t.submittedAt + ms);

describe('snapshotAt', () => {
  it('is queued first, then in progress with progress growing with time, then SUCCESS at 100', () => {
    const t = task();
    expect(at(t, 0)).toMatchObject({ phase: 'queued', status: 'IN_PROGRESS', progress: 0 });
    expect(at(t, 99)).toMatchObject({ phase: 'queued', progress: 0 });
    expect(at(t, 400)).toMatchObject({ phase: 'in_progress', status: 'IN_PROGRESS', progress: 40 });
    expect(at(t, 999)).toMatchObject({ phase: 'in_progress', progress: 99 });
    expect(at(t, 1000)).toEqual({
      phase: 'completed',
      status: 'SUCCESS',
      progress: 100,
      failReason: null,
      endedAt: t.submittedAt + 1000,
    });
    expect(endTime(t)).toBe(t.submittedAt + 1000);
  });

  it('ends a doomed task in FAILURE half-way, with a fail reason that says it was refunded', () => {
    const t = task(TASK_FAILURES['task-fail']);
    expect(at(t, 499)).toMatchObject({ phase: 'in_progress', progress: 49 });
    const failed = at(t, 500);
    expect(failed).toMatchObject({ phase: 'failed', status: 'FAILURE', progress: 50 });
    expect(failed.failReason).toMatch(/refunded/);
    expect(at(t, 5000)).toEqual(failed);
    expect(endTime(t)).toBe(t.submittedAt + 500);
  });

  it('fails a task-quota task at once, at progress 0, with the quota fail reason', () => {
    const t = task(TASK_FAILURES['task-quota']);
    expect(at(t, 0)).toEqual({
      phase: 'failed',
      status: 'FAILURE',
      progress: 0,
      failReason: SIMULATED_QUOTA_REASON,
      endedAt: t.submittedAt,
    });
    expect(at(t, 5000)).toEqual(at(t, 0));
    expect(endTime(t)).toBe(t.submittedAt);
  });

  it('is complete at once when the duration is zero', () => {
    expect(at({ ...task(), durationMs: 0 }, 0).status).toBe('SUCCESS');
  });
});
