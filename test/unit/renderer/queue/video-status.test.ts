import { describe, expect, it } from 'vitest';
import {
  elapsedOf,
  formatElapsed,
  isUnderWay,
  platformText,
  platformWord,
  type VideoStatus,
} from '../../../../renderer/src/screens/queue/video-status.ts';

const status = (patch: Partial<VideoStatus> = {}): VideoStatus => ({
  phase: 'in-progress',
  platformStatus: 'IN_PROGRESS',
  progress: 45.6,
  taskId: 'vt-1',
  requestId: 'req-1',
  upstreamRequestId: null,
  checkRequestId: 'req-2',
  submittedAt: 10_000,
  checkedAt: 20_000,
  elapsedMs: 10_000,
  overdue: false,
  overdueSince: null,
  ...patch,
});

describe("a video job's platform state", () => {
  it('says the phase, with the progress while in progress', () => {
    expect(platformText(status())).toBe('in progress 45%');
    expect(platformText(status({ progress: null }))).toBe('in progress');
    expect(platformText(status({ phase: 'submitted' }))).toBe('submitted');
    expect(platformText(status({ phase: 'waiting', submittedAt: null }))).toBe(null);
    expect(platformText(status({ phase: 'failed' }))).toBe('failed on the platform');
  });

  it("shows a status it does not know as pending, with the platform's own word", () => {
    const rendering = status({ phase: 'pending', platformStatus: 'rendering', progress: 60 });
    expect(platformText(rendering)).toBe('pending');
    expect(platformWord(rendering)).toBe('rendering');
    expect(platformWord(status({ platformStatus: '  ' }))).toBe(null);
  });

  it('counts the elapsed time to now while the task runs, else what the service measured', () => {
    expect(isUnderWay(status(), 'running')).toBe(true);
    expect(elapsedOf(status(), 'running', 75_000)).toBe(65_000);
    // ended on the platform, or the job is no longer running: the service's figure
    expect(isUnderWay(status({ phase: 'succeeded' }), 'running')).toBe(false);
    expect(elapsedOf(status({ phase: 'succeeded' }), 'running', 75_000)).toBe(10_000);
    expect(elapsedOf(status(), 'canceled', 75_000)).toBe(10_000);
    expect(elapsedOf(status({ submittedAt: null }), 'running', 75_000)).toBe(null);
  });

  it('formats elapsed times in a steady width', () => {
    expect(formatElapsed(42_900)).toBe('42 s');
    expect(formatElapsed(185_000)).toBe('3 min 05 s');
    expect(formatElapsed(3_725_000)).toBe('1 h 02 min');
  });
});
