import type { BrowserWindow as ElectronWindow } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BrowserWindow, resetElectronMock } from '../../support/electron-mock.ts';
import type { ApiEventOf } from '../../../shared/api/events.ts';
import type { EventListener } from '../../../shared/api/types.ts';
import { NO_SPEND } from '../../support/spend-fixtures.ts';
import {
  NO_BAR,
  progressBar,
  setupTaskbar,
  TaskbarProgress,
} from '../../../main/electron/setup-taskbar.ts';

vi.mock('electron', () => import('../../support/electron-mock.ts'));

type Progress = ApiEventOf<'progress'>['payload'];
const jobs = { queued: 0, running: 0, retrying: 0, succeeded: 0, failed: 0, canceled: 0 };
const downloads = { pending: 0, downloading: 0, done: 0, failed: 0 };
const counts = (j: Partial<typeof jobs>, d: Partial<typeof downloads> = {}) => ({
  jobs: { ...jobs, ...j },
  downloads: { ...downloads, ...d },
});

function progress(
  batches: Array<{ id: number } & ReturnType<typeof counts>>,
  overall = counts({ queued: 1 }),
  paused: Progress['paused'] = null,
): Progress {
  return {
    ...overall,
    inFlight: 0,
    downloading: 0,
    jobsPerSecond: 0,
    requestsSent: 0,
    imagesWritten: 0,
    bytesWritten: 0,
    spentToday: NO_SPEND,
    paused,
    batches: batches.map((batch) => ({ ...batch, spent: NO_SPEND })),
  };
}

describe('progressBar', () => {
  it('shows the settled share while work is left', () => {
    const batch = counts({ queued: 60, running: 10, succeeded: 25, failed: 3, canceled: 2 });
    expect(progressBar(batch, [batch], null)).toEqual({ progress: 0.3, mode: 'normal' });
  });

  it('counts only downloads left as work left, at the settled share', () => {
    const batch = counts({ succeeded: 10 }, { pending: 4 });
    expect(progressBar(batch, [batch], null)).toEqual({ progress: 1, mode: 'normal' });
  });

  it('removes the bar when nothing is left', () => {
    const batch = counts({ succeeded: 10, failed: 2 });
    expect(progressBar(batch, [batch], null)).toBe(NO_BAR);
    expect(NO_BAR).toEqual({ progress: -1, mode: 'none' });
  });

  it.each([
    ['manual', 'paused'],
    ['rate-limit', 'paused'],
    ['disk', 'paused'],
    ['other', 'paused'],
    ['auth', 'error'],
    ['balance', 'error'],
    ['permission', 'error'],
  ] as const)('a %s pause shows as %s', (kind, mode) => {
    const batch = counts({ queued: 3, succeeded: 1 });
    expect(progressBar(batch, [batch], { kind })).toEqual({ progress: 0.25, mode });
  });

  it('starts at 0 before any batch is known', () => {
    expect(progressBar(counts({ queued: 1 }), [], null)).toEqual({ progress: 0, mode: 'normal' });
  });
});

describe('TaskbarProgress', () => {
  it('keeps every batch of the run, though each event names only those it touched', () => {
    const bar = new TaskbarProgress();
    expect(bar.next(progress([{ id: 1, ...counts({ queued: 10 }) }]))).toMatchObject({
      progress: 0,
    });
    expect(bar.next(progress([{ id: 2, ...counts({ succeeded: 10 }) }]))).toMatchObject({
      progress: 0.5,
    });
  });

  it('forgets the run once the queue is idle', () => {
    const bar = new TaskbarProgress();
    bar.next(progress([{ id: 1, ...counts({ succeeded: 10 }) }]));
    expect(bar.next(progress([], counts({ succeeded: 10 })))).toBe(NO_BAR);
    expect(bar.next(progress([{ id: 2, ...counts({ queued: 4 }) }]))).toMatchObject({
      progress: 0,
    });
  });

  it('answers null when the bar did not change', () => {
    const bar = new TaskbarProgress();
    const event = progress([{ id: 1, ...counts({ queued: 1, succeeded: 1 }) }]);
    expect(bar.next(event)).not.toBeNull();
    expect(bar.next(event)).toBeNull();
  });
});

describe('setupTaskbar', () => {
  beforeEach(() => resetElectronMock());

  it('sets the window’s bar from progress events and clears it when idle', () => {
    let listener!: EventListener;
    const events = {
      subscribe: vi.fn((_c: string | null, l: EventListener) => ((listener = l), vi.fn())),
    };
    const win = new BrowserWindow();
    setupTaskbar(events, win as unknown as ElectronWindow);
    const event = (payload: Progress) =>
      listener({ cursor: 'c', events: [{ type: 'progress', payload }] });
    event(
      progress([{ id: 1, ...counts({ queued: 1, succeeded: 1 }) }], counts({ queued: 1 }), {
        reason: 'The key was refused.',
        code: 'invalid_api_key',
        kind: 'auth',
      }),
    );
    expect(win.setProgressBar).toHaveBeenLastCalledWith(0.5, { mode: 'error' });
    event(progress([], counts({ succeeded: 2 })));
    expect(win.setProgressBar).toHaveBeenLastCalledWith(-1, { mode: 'none' });
  });
});
