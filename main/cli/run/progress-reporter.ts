import type { EngineProgress } from '../../core/engine/progress.ts';
import { progressFigures, renderProgress } from './progress-bar.ts';
import { resultWords, type ResultWords } from '../../../shared/jobs/words.ts';

/** Where progress goes: stderr, so stdout keeps only the summary. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** A redrawn bar on a terminal; else a line every few seconds (logs, CI); nothing with --json. */
export type ProgressMode = 'bar' | 'lines' | 'none';

export function progressMode(options: { json: boolean; isTTY: boolean }): ProgressMode {
  if (options.json) return 'none';
  return options.isTTY ? 'bar' : 'lines';
}

const BAR_INTERVAL_MS = 100;
const LINE_INTERVAL_MS = 5_000;
const CLEAR_TO_END = '\x1b[K';

export interface ProgressReporter {
  update(progress: EngineProgress): void;
  /** Draws the last state and ends the bar's line, before the summary is printed. */
  finish(progress: EngineProgress): void;
}

export function createProgressReporter(
  stream: ProgressStream,
  mode: ProgressMode,
  options: { now?: () => number; words?: ResultWords } = {},
): ProgressReporter {
  const { now = Date.now, words = resultWords(1, 0) } = options;
  let last = Number.NEGATIVE_INFINITY;
  let drawn = false;
  const draw = (progress: EngineProgress) => {
    stream.write(`\r${renderProgress(progress, stream.columns || 80, words)}${CLEAR_TO_END}`);
    drawn = true;
  };
  return {
    update(progress) {
      const at = now();
      if (mode === 'bar' && at - last >= BAR_INTERVAL_MS) {
        last = at;
        draw(progress);
      } else if (mode === 'lines') {
        if (last === Number.NEGATIVE_INFINITY)
          last = at; // the first line after a few seconds
        else if (at - last >= LINE_INTERVAL_MS) {
          last = at;
          stream.write(`atelier: ${progressFigures(progress, words)}\n`);
        }
      }
    },
    finish(progress) {
      if (mode !== 'bar') return;
      draw(progress);
      if (drawn) stream.write('\n');
    },
  };
}
