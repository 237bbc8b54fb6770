import type { EngineProgress } from '../../core/engine/progress.ts';
import { formatClock } from './format-time.ts';
import { plural } from '../../../shared/text/plural.ts';
import { resultWords, type ResultWords } from '../../../shared/jobs/words.ts';

const IMAGES = resultWords(1, 0);

const FILLED = '█';
const EMPTY = '░';
/** Narrower than this, the bar is left out and only the figures remain. */
const MIN_BAR = 10;

export interface JobTally {
  total: number;
  /** Succeeded, failed or canceled: nothing more will happen to them without a retry. */
  finished: number;
  remaining: number;
}

export function tallyJobs(jobs: EngineProgress['jobs']): JobTally {
  const finished = jobs.succeeded + jobs.failed + jobs.canceled;
  const remaining = jobs.queued + jobs.running + jobs.retrying;
  return { total: finished + remaining, finished, remaining };
}

/** Seconds left at the current finishing rate, or null when it cannot be told yet. */
export function etaMs(progress: EngineProgress): number | null {
  const { remaining } = tallyJobs(progress.jobs);
  if (remaining === 0) return 0;
  if (progress.jobsPerSecond <= 0) return null;
  return (remaining / progress.jobsPerSecond) * 1000;
}

/** The figures of one progress line: counts, results, rate and ETA (or the pause reason). */
export function progressFigures(progress: EngineProgress, words: ResultWords = IMAGES): string {
  const { jobs, downloads } = progress;
  const { total, finished } = tallyJobs(jobs);
  const parts = [`${finished}/${total} prompts`, `${jobs.succeeded} ok`];
  if (jobs.failed > 0) parts.push(`${jobs.failed} failed`);
  if (jobs.retrying > 0) parts.push(`${jobs.retrying} retrying`);
  let results = `${downloads.done} ${words.many}`;
  if (downloads.failed > 0) results += ` (${plural(downloads.failed, 'download')} failed)`;
  parts.push(results);
  parts.push(`${progress.jobsPerSecond.toFixed(1)}/s`);
  if (progress.paused) parts.push(`paused: ${progress.paused.reason}`);
  else {
    const eta = etaMs(progress);
    parts.push(`ETA ${eta === null ? '--:--' : formatClock(eta)}`);
  }
  return parts.join(' · ');
}

/**
 * One line of the live progress bar, never wider than `width - 1` (writing the last column
 * makes some terminals wrap): `[███░░░] 42/100 prompts · 40 ok · … · ETA 0:18`.
 */
export function renderProgress(
  progress: EngineProgress,
  width: number,
  words: ResultWords = IMAGES,
): string {
  const limit = Math.max(1, Math.floor(width) - 1);
  const figures = progressFigures(progress, words);
  const barWidth = limit - figures.length - 3; // "[", "] "
  if (barWidth < MIN_BAR) return truncate(figures, limit);
  const { total, finished } = tallyJobs(progress.jobs);
  const filled = total === 0 ? 0 : Math.min(barWidth, Math.floor((finished / total) * barWidth));
  return `[${FILLED.repeat(filled)}${EMPTY.repeat(barWidth - filled)}] ${figures}`;
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, Math.max(0, limit - 1))}…`;
}
