import type { AppService } from '../../core/app/app-service.ts';
import { EngineBusyError, type Engine } from '../../core/engine/engine.ts';
import type { EngineProgress } from '../../core/engine/progress.ts';
import { LibraryFolderError } from '../../core/library/library-folder.ts';
import { StoreDiskError } from '../../core/store/store-errors.ts';
import type { Batch } from '../../core/store/rows.ts';
import type { Store } from '../../core/store/store.ts';
import { ConfigError } from '../command.ts';
import { libraryRefusal } from '../data-folder.ts';
import { workCounts } from '../../core/app/reports.ts';
import { localClient } from '../../core/app/local-client.ts';
import { moneyOf } from '../../../shared/spend/prices.ts';
import { ApiRequestError } from '../../../shared/api/api-request-error.ts';
import type { SpendTotals } from '../../core/store/spend-repository.ts';
import { createInterruptHandler, signalName, STOP_SIGNALS, type StopSignal } from './interrupt.ts';
import { keepRunningWithoutTerminal } from './lost-terminal.ts';
import { createProgressReporter, progressMode } from './progress-reporter.ts';
import { tallyJobs } from './progress-bar.ts';
import { resultWords, type ResultWords } from '../../../shared/jobs/words.ts';
import { stopAtOnce } from './stop-at-once.ts';
import {
  buildSummary,
  formatSummary,
  SUMMARY_EXAMPLES,
  type ExpiredExample,
  type FailedExample,
  type RunOutcome,
  type RunSummary,
} from './summary.ts';

export interface SessionOptions {
  /** The data folder's application service, its queue not started yet. */
  service: AppService;
  json: boolean;
  /** Said first, and printed by the command already (the demo answers: no gateway chosen). */
  notice?: string | null;
  /** The summary's scope: the batch `run` imported, or null for the whole data folder. */
  batch: Batch | null;
  /** Appended to suggested commands (" --data DIR"). */
  commandSuffix: string;
  /** Another process holds the queue: undo what was prepared for this run. */
  onBusy?: () => void;
  /** After the engine took the queue, before it is watched: queue what this command adds. */
  prepare?: (engine: Engine) => void;
  /** --over-budget: a budget pause left behind is run past ("run anyway") rather than kept. */
  overBudget?: boolean;
}

const interruptReason = (signal: StopSignal) =>
  `Paused ${signal === 'SIGINT' ? 'with' : 'by'} ${signalName(signal)}; "atelier resume" continues.`;
const STOPPED = {
  reason: 'Another Atelier took over this data folder, so this one stopped.',
  code: 'stopped',
  kind: 'other' as const,
};

/**
 * Runs the data folder's queue until nothing is left to do (or it pauses, or Ctrl+C), with
 * progress on stderr, then prints the summary and returns the exit code.
 */
export async function runEngineSession(options: SessionOptions): Promise<number> {
  const startedAt = Date.now();
  keepRunningWithoutTerminal();
  const { service } = options;
  const store = service.store;
  let engine: Engine;
  let notes: string[];
  // what the whole data folder spent before: a resume's summary says what this run added
  const spentBefore = store.spend.totals();
  const { currency } = await localClient(service).settings.get({});
  try {
    engine = await startSession(options);
    notes = await startNotes(engine, options);
  } catch (error) {
    await service.stopQueue();
    throw error;
  }
  const summarize = (outcome: RunOutcome, signal: StopSignal | null) =>
    collectSummary(options, engine, outcome, Date.now() - startedAt, notes, signal, {
      before: spentBefore,
      currency,
    });
  let stoppedAtOnce = false;
  let ended: { outcome: RunOutcome; signal: StopSignal | null };
  try {
    ended = await watchUntilIdle(engine, {
      json: options.json,
      finished: () => nothingLeft(store),
      view: (progress) => scoped(store, options.batch, progress),
      words: resultWords(
        tallyJobs(store.jobs.counts(options.batch?.id)).total,
        store.jobs.videoCount(options.batch?.id),
      ),
      stopNow: (signal) => {
        stoppedAtOnce = true;
        // what the database holds at that moment: the prompts in flight are still running
        stopAtOnce(
          () => finalWords(summarize('interrupted', signal), options, { stoppedAtOnce, signal }),
          {},
          signal,
        );
      },
    });
  } finally {
    await service.stopQueue();
  }
  // The process is about to exit with the summary already printed: `--json` gets one object.
  if (stoppedAtOnce) return new Promise<never>(() => {});
  const words = finalWords(summarize(ended.outcome, ended.signal), options, {
    stoppedAtOnce: false,
    signal: ended.signal,
  });
  process.stdout.write(words.text);
  return words.exitCode;
}

/** The summary as printed: one JSON object with --json, otherwise the text for a person. */
function finalWords(
  summary: RunSummary,
  options: SessionOptions,
  how: { stoppedAtOnce: boolean; signal: StopSignal | null },
) {
  if (options.json) {
    return { text: `${JSON.stringify(summary, null, 2)}\n`, exitCode: summary.exitCode };
  }
  const store = options.service.store;
  const scope = options.batch ? { batchId: options.batch.id } : {};
  const text = formatSummary(summary, {
    commandSuffix: options.commandSuffix,
    failedExamples: failedExamples(store, scope),
    expiredExamples: expiredExamples(store, scope),
    failedDownloadExamples: store.images.failedDownloadExamples({
      ...scope,
      limit: SUMMARY_EXAMPLES,
    }),
    stoppedAtOnce: how.stoppedAtOnce,
    signal: how.signal,
  });
  return { text: `${text}\n`, exitCode: summary.exitCode };
}

function failedExamples(store: Store, scope: { batchId?: number }): FailedExample[] {
  return store.jobs.listFailed({ ...scope, limit: SUMMARY_EXAMPLES }).map((job) => ({
    position: job.position,
    prompt: job.prompt,
    message: job.errorMessage,
    requestId: job.lastRequestId,
  }));
}

function expiredExamples(store: Store, scope: { batchId?: number }): ExpiredExample[] {
  return store.images.listExpiredLinks({ ...scope, limit: SUMMARY_EXAMPLES }).map((image) => {
    // (an image goes with its job: they are deleted together)
    const job = store.jobs.get(image.jobId)!;
    return { position: job.position, prompt: job.prompt, image: image.idx };
  });
}

/** Starts the queue through the service; a start it refuses is said as the CLI says it. */
async function startSession(options: SessionOptions): Promise<Engine> {
  const { service } = options;
  await service.startQueue();
  const session = service.queue;
  if (session.engine) return session.engine;
  const error = session.startFailure;
  if (error instanceof LibraryFolderError) throw libraryRefusal(error.folder, error.problem);
  if (error instanceof StoreDiskError) throw new ConfigError(error.message);
  if (error instanceof EngineBusyError) {
    options.onBusy?.();
    throw new ConfigError(error.message);
  }
  // a missing key or header value, settings another process left unusable: the person's to fix
  if (!error && session.problem) throw new ConfigError(session.problem.message);
  throw error ?? new Error('The queue did not start, and said no reason.');
}

/** What the start found worth saying (printed without --json); lifts a pause left behind. */
async function startNotes(engine: Engine, options: SessionOptions): Promise<string[]> {
  const session = options.service.queue;
  const report = session.startReport!;
  const notes = [`Sending requests to ${session.description}.`];
  if (report.answersRecorded > 0) {
    notes.push(
      `Recorded ${report.answersRecorded} answer(s) received while the data folder could not ` +
        'be written (they were kept in the library meanwhile); their images are written now.',
    );
  }
  if (report.uncertain.length > 0) {
    notes.push(
      `${report.uncertain.length} prompt(s) were in flight when Atelier last stopped: they may ` +
        'have been generated and charged, so they are marked failed (uncertain) and not resent. ' +
        `"atelier retry --uncertain${options.commandSuffix}" sends them again.`,
    );
  }
  if (report.resumedDownloads > 0) {
    notes.push(`Resuming ${report.resumedDownloads} unfinished download(s).`);
  }
  const queue = options.service.store.queue.get();
  if (queue.paused && queue.pauseKind === 'budget') {
    notes.push(await liftBudgetPause(options, queue.pauseReason ?? 'A spending cap was reached.'));
  } else if (queue.paused) {
    notes.push(`The queue was paused: ${queue.pauseReason ?? 'no reason given.'} Continuing.`);
    engine.resume();
  }
  options.prepare?.(engine);
  if (!options.json) process.stderr.write(`${notes.join('\n')}\n`);
  return options.notice ? [options.notice, ...notes] : notes;
}

/**
 * A budget pause left behind lifts only when its cap no longer stops the next request (it was
 * raised), or with --over-budget; otherwise it stays, and the run ends at once, paused.
 */
async function liftBudgetPause(options: SessionOptions, reason: string): Promise<string> {
  const overBudget = options.overBudget ?? false;
  try {
    await localClient(options.service).queue.resume({ overBudget });
  } catch (error) {
    if (!(error instanceof ApiRequestError) || error.code !== 'conflict') throw error;
    return `The queue is paused: ${reason}`;
  }
  return overBudget
    ? `The queue was paused: ${reason} Running past that cap, as asked (--over-budget).`
    : `The queue was paused: ${reason} The cap allows it now: continuing.`;
}

interface WatchOptions {
  json: boolean;
  /** Whether nothing is left to do in the data folder. */
  finished: () => boolean;
  /** What the progress bar counts: the run's batch, or everything. */
  view: (progress: EngineProgress) => EngineProgress;
  /** What the bar calls the results: images, videos or both. */
  words: ResultWords;
  /** The second Ctrl+C (or signal): print the summary and exit as soon as it is written. */
  stopNow: (signal: StopSignal) => void;
}

/**
 * Waits for the queue to settle, drawing progress. Ctrl+C, SIGTERM or SIGHUP pauses (the
 * requests in flight finish); a second one of any kind leaves at once.
 */
async function watchUntilIdle(
  engine: Engine,
  options: WatchOptions,
): Promise<{ outcome: RunOutcome; signal: StopSignal | null }> {
  const { json, finished, view, words, stopNow } = options;
  const stderr = process.stderr;
  const mode = progressMode({ json, isTTY: Boolean(stderr.isTTY) });
  const reporter = createProgressReporter(stderr, mode, { words });
  const interrupt = createInterruptHandler({
    pause(signal) {
      const inFlight = engine.progress().inFlight;
      if (!json) {
        stderr.write(
          `\n${pausingNotice(signal)}: no new requests; waiting for the ${inFlight} in flight ` +
            `to finish (they may be paid for). ${againToStop(signal)}\n`,
        );
      }
      engine.pause(interruptReason(signal), 'manual');
      // The graceful stop: requests in flight finish, downloads stop at once and wait for
      // resume (free to run again, and one that stalls must not hold the pause).
      void engine.stop();
    },
    exitNow(signal) {
      // no bar redrawn over the summary while it is written
      engine.off('progress', onProgress);
      stopNow(signal);
    },
  });
  const onProgress = (progress: EngineProgress) => reporter.update(view(progress));
  for (const signal of STOP_SIGNALS) process.on(signal, interrupt.handle);
  // (with --json nothing is drawn: the engine then counts nothing for progress either)
  if (mode !== 'none') engine.on('progress', onProgress);
  try {
    const reason = await engine.whenIdle();
    reporter.finish(view(engine.progress()));
    if (interrupt.interrupted) {
      if (!finished()) return { outcome: 'interrupted', signal: interrupt.signal };
      // Ctrl+C as the last job finished: nothing to resume, so no pause to leave behind.
      engine.resume();
      return { outcome: 'done', signal: null };
    }
    return { outcome: reason === 'done' ? 'done' : 'paused', signal: null };
  } finally {
    engine.off('progress', onProgress);
    for (const signal of STOP_SIGNALS) process.off(signal, interrupt.handle);
  }
}

const pausingNotice = (signal: StopSignal) =>
  signal === 'SIGINT' ? 'Pausing' : `Pausing (${signal})`;

const againToStop = (signal: StopSignal) =>
  signal === 'SIGINT'
    ? 'Press Ctrl+C again to stop at once.'
    : `Send ${signal} again, or press Ctrl+C, to stop at once.`;

/** The engine counts every batch; `atelier run` shows its own batch's. */
function scoped(store: Store, batch: Batch | null, progress: EngineProgress): EngineProgress {
  if (!batch) return progress;
  return {
    ...progress,
    jobs: store.jobs.counts(batch.id),
    downloads: store.images.counts(batch.id),
  };
}

/** Nothing queued, running, retrying or waiting to download in the whole data folder. */
function nothingLeft(store: Store): boolean {
  const jobs = store.jobs.counts();
  const downloads = store.images.counts();
  return (
    jobs.queued + jobs.running + jobs.retrying === 0 &&
    downloads.pending + downloads.downloading === 0
  );
}

function collectSummary(
  options: SessionOptions,
  engine: Engine,
  outcome: RunOutcome,
  wallTimeMs: number,
  notes: string[],
  signal: StopSignal | null,
  spent: SpentSince,
): RunSummary {
  const { batch } = options;
  const store = options.service.store;
  // a stop at once comes before the engine settles: the writes of this turn count too
  engine.flushWrites();
  const progress = engine.progress();
  // (the engine's: a data folder that refuses writes could not record its pause)
  const paused = progress.paused ?? (outcome === 'paused' ? STOPPED : null);
  return buildSummary({
    outcome,
    batch,
    libraryDir: options.service.libraryDir(),
    ...workCounts(store, batch?.id),
    stats: {
      requestsSent: progress.requestsSent,
      imagesWritten: progress.imagesWritten,
      bytesWritten: progress.bytesWritten,
    },
    wallTimeMs,
    paused,
    notes,
    signal,
    spend: spentIn(options, spent),
  });
}

/** The data folder's spend when the command began, and the currency to say it in. */
interface SpentSince {
  before: SpendTotals;
  currency: { code: string; perUnit: number } | null;
}

/**
 * What the summary says was spent: the batch `run` made, or what the whole data folder spent
 * while this command ran (resume, retry); results priced, and what may have been charged.
 */
function spentIn(options: SessionOptions, { before, currency }: SpentSince): RunSummary['spend'] {
  const { store } = options.service;
  const batch = options.batch;
  const now = batch ? store.spend.totals({ batchId: batch.id }) : store.spend.totals();
  const base = batch ? null : before;
  const minus = (key: keyof SpendTotals) => now[key] - (base?.[key] ?? 0);
  const units = minus('units');
  return {
    units,
    money: moneyOf(units, currency),
    unpriced: minus('unpriced'),
    uncertainUnits: minus('uncertainUnits'),
  };
}
