import { describe, expect, it } from 'vitest';
import { formatClock, formatWallTime } from '../../../main/cli/run/format-time.ts';
import { etaMs, progressFigures, renderProgress } from '../../../main/cli/run/progress-bar.ts';
import { createProgressReporter, progressMode } from '../../../main/cli/run/progress-reporter.ts';
import type { EngineProgress } from '../../../main/core/engine/progress.ts';
import { resultWords } from '../../../shared/jobs/words.ts';

function progress(overrides: {
  jobs?: Partial<EngineProgress['jobs']>;
  downloads?: Partial<EngineProgress['downloads']>;
  rest?: Partial<EngineProgress>;
}): EngineProgress {
  return {
    jobs: {
      queued: 0,
      running: 0,
      retrying: 0,
      succeeded: 0,
      failed: 0,
      canceled: 0,
      ...overrides.jobs,
    },
    downloads: { pending: 0, downloading: 0, done: 0, failed: 0, ...overrides.downloads },
    inFlight: 0,
    downloading: 0,
    concurrency: 8,
    requestsSent: 0,
    imagesWritten: 0,
    bytesWritten: 0,
    jobsPerSecond: 0,
    paused: null,
    elapsedMs: 0,
    ...overrides.rest,
  };
}

const midway = progress({
  jobs: { queued: 50, running: 8, succeeded: 40, failed: 2 },
  downloads: { done: 38, failed: 1 },
  rest: { jobsPerSecond: 4 },
});

describe('renderProgress', () => {
  it('shows counts, images, rate and ETA after a bar proportional to the finished prompts', () => {
    const line = renderProgress(midway, 120);
    expect(line).toMatch(
      /^\[█+░+\] 42\/100 prompts · 40 ok · 2 failed · 38 images \(1 download failed\) · 4\.0\/s · ETA 0:15$/,
    );
    const bar = /^\[(█*)(░*)\]/.exec(line)!;
    const filled = bar[1]!.length;
    const width = filled + bar[2]!.length;
    expect(filled).toBe(Math.floor(0.42 * width));
  });

  it('counts videos for a batch of videos, and both for a mixed one', () => {
    expect(renderProgress(midway, 120, resultWords(100, 100))).toContain(
      '· 38 videos (1 download failed) ·',
    );
    expect(progressFigures(midway, resultWords(100, 3))).toContain('· 38 images and videos (');
  });

  it('never reaches the last column, whatever the width', () => {
    for (const width of [20, 40, 79, 80, 200]) {
      expect(renderProgress(midway, width).length).toBeLessThanOrEqual(width - 1);
    }
  });

  it('drops the bar when the terminal is narrow and keeps the figures', () => {
    const line = renderProgress(midway, 60);
    expect(line.startsWith('42/100 prompts')).toBe(true);
    expect(line.endsWith('…')).toBe(true);
  });

  it('says "--:--" before any rate is known and shows the pause reason instead of an ETA', () => {
    const start = progress({ jobs: { queued: 10 } });
    expect(progressFigures(start)).toContain('ETA --:--');
    expect(etaMs(start)).toBeNull();
    const paused = progress({
      jobs: { queued: 10 },
      rest: {
        paused: {
          reason: 'The gateway refused the API key.',
          code: 'invalid_api_key',
          kind: 'auth',
        },
      },
    });
    expect(progressFigures(paused)).toContain('paused: The gateway refused the API key.');
    expect(progressFigures(paused)).not.toContain('ETA');
  });

  it('draws an empty bar for an empty queue and a full one when all is finished', () => {
    expect(renderProgress(progress({}), 80)).toMatch(/^\[░+\] 0\/0 prompts/);
    const done = progress({ jobs: { succeeded: 5 }, downloads: { done: 5 } });
    expect(renderProgress(done, 80)).toMatch(/^\[█+\] 5\/5 prompts .* ETA 0:00$/);
  });
});

describe('durations', () => {
  it('formats clocks and wall times', () => {
    expect(formatClock(7_400)).toBe('0:07');
    expect(formatClock(750_000)).toBe('12:30');
    expect(formatClock(3_723_000)).toBe('1:02:03');
    expect(formatWallTime(840)).toBe('0.8 s');
    expect(formatWallTime(42_000)).toBe('42 s');
    expect(formatWallTime(185_000)).toBe('3 min 05 s');
    expect(formatWallTime(7_440_000)).toBe('2 h 04 min');
  });
});

describe('progress reporter', () => {
  const sink = (isTTY: boolean) => {
    const writes: string[] = [];
    return { writes, stream: { isTTY, columns: 100, write: (t: string) => writes.push(t) } };
  };

  it('chooses a bar on a terminal, lines elsewhere, nothing with --json', () => {
    expect(progressMode({ json: false, isTTY: true })).toBe('bar');
    expect(progressMode({ json: false, isTTY: false })).toBe('lines');
    expect(progressMode({ json: true, isTTY: true })).toBe('none');
  });

  it('redraws the bar in place at most every 100 ms and ends its line when finished', () => {
    const { writes, stream } = sink(true);
    let now = 0;
    const reporter = createProgressReporter(stream, 'bar', { now: () => now });
    reporter.update(midway);
    now = 50;
    reporter.update(midway);
    now = 120;
    reporter.update(midway);
    expect(writes).toHaveLength(2);
    expect(writes[0]).toMatch(/^\r\[█+░+\] 42\/100 prompts/);
    expect(writes[0]!.endsWith('\u001b[K')).toBe(true); // clears what a longer line left
    reporter.finish(midway);
    expect(writes.at(-1)).toBe('\n');
  });

  it('writes a plain line every five seconds when not on a terminal', () => {
    const { writes, stream } = sink(false);
    let now = 0;
    const reporter = createProgressReporter(stream, 'lines', { now: () => now });
    for (now = 0; now <= 12_000; now += 1_000) reporter.update(midway);
    reporter.finish(midway);
    expect(writes).toEqual([
      `atelier: ${progressFigures(midway)}\n`,
      `atelier: ${progressFigures(midway)}\n`,
    ]);
  });

  it('writes nothing with --json', () => {
    const { writes, stream } = sink(true);
    const reporter = createProgressReporter(stream, 'none', { now: () => 0 });
    reporter.update(midway);
    reporter.finish(midway);
    expect(writes).toEqual([]);
  });
});
