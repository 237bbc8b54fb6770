import type { Catalogue } from '../../../shared/gateway/catalogue.ts';
import { EngineBusyError, type Engine } from '../../core/engine/engine.ts';
import type { EngineProgress } from '../../core/engine/progress.ts';
import { LibraryFolderError } from '../../core/library/library-folder.ts';
import { StoreDiskError } from '../../core/store/store-errors.ts';
import type { Batch } from '../../core/store/rows.ts';
import type { Store } from '../../core/store/store.ts';
import { ConfigError } from '../command.ts';
import { libraryRefusal } from '../data-folder.ts';
import { workCounts } from '../../core/app/reports.ts';
import { API_KEY_VARIABLE, MemoryKeyProvider } from '../../core/app/key.ts';
import { QueueSession } from '../../core/app/queue-session.ts';
import { consoleLogger } from '../../core/logger.ts';
import { startDemoGateway } from './gateway-connection.ts';
import { createInterruptHandler, signalName, STOP_SIGNALS, type StopSignal } from './interrupt.ts';
import type { Limits } from './limit-flags.ts';
import { keepRunningWithoutTerminal } from './lost-terminal.ts';
import { createProgressReporter, progressMode } from './progress-reporter.ts';
import { appSettings, type SavedSettings } from './saved-settings.ts';
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
  store: Store;
  settings: SavedSettings;
  apiKey: string | null;
  catalogue: Catalogue;
  json: boolean;
  /** Caps on downloads and answers for this run (flags); defaults where absent. */
  limits?: Limits;
  /** The summary's scope: the batch `run` imported, or null for the whole data folder. */
  batch: Batch | null;
  /** Appended to suggested commands (" --data DIR"). */
  commandSuffix: string;
  /** Another process holds the queue: undo what was prepared for this run. */
  onBusy?: () => void;
  /** After the engine took the queue, before it is watched: queue what this command adds. */
  prepare?: (engine: Engine) => void;
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
  const { store } = options;
  const session = new QueueSession({
    store,
    keys: new MemoryKeyProvider(options.apiKey ? { [API_KEY_VARIABLE]: options.apiKey } : {}),
    startDemoGateway,
    logger: consoleLogger,
    ...(options.limits?.engine ? { engine: options.limits.engine } : {}),
    ...(options.limits?.client ? { client: options.limits.client } : {}),
  });
  let engine: Engine;
  let notes: string[];
  try {
    engine = await startSession(session, options);
    notes = startNotes(engine, session, options);
  } catch (error) {
    await session.stop();
    throw error;
  }
  const summarize = (outcome: RunOutcome, signal: StopSignal | null) =>
    collectSummary(options, engine, outcome, Date.now() - startedAt, notes, signal);
  let stoppedAtOnce = false;
  let ended: { outcome: RunOutcome; signal: StopSignal | null };
  try {
    ended = await watchUntilIdle(engine, {
      json: options.json,
      finished: () => nothingLeft(store),
      view: (progress) => scoped(store, options.batch, progress),
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
    await session.stop();
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
  const { store } = options;
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

/** Starts the queue through the core's session; a start it refuses is said as the CLI says it. */
async function startSession(session: QueueSession, options: SessionOptions): Promise<Engine> {
  const { settings } = options;
  await session.start(
    () => ({
      settings: appSettings(settings),
      libraryDir: settings.library,
      catalogue: options.catalogue,
    }),
    { committed() {}, paused() {}, limits() {}, downloadChanged() {} },
  );
  if (session.engine) return session.engine;
  const error = session.startFailure;
  if (error instanceof LibraryFolderError) throw libraryRefusal(error.folder, error.problem);
  if (error instanceof StoreDiskError) throw new ConfigError(error.message);
  if (error instanceof EngineBusyError) {
    options.onBusy?.();
    throw new ConfigError(error.message);
  }
  throw error ?? new Error(`The queue did not start: ${session.problem?.message ?? 'no reason'}`);
}

/** What the start found worth saying (printed without --json); lifts a pause left behind. */
function startNotes(engine: Engine, session: QueueSession, options: SessionOptions): string[] {
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
  const queue = options.store.queue.get();
  if (queue.paused) {
    notes.push(`The queue was paused: ${queue.pauseReason ?? 'no reason given.'} Continuing.`);
    engine.resume();
  }
  options.prepare?.(engine);
  if (!options.json) process.stderr.write(`${notes.join('\n')}\n`);
  return notes;
}

interface WatchOptions {
  json: boolean;
  /** Whether nothing is left to do in the data folder. */
  finished: () => boolean;
  /** What the progress bar counts: the run's batch, or everything. */
  view: (progress: EngineProgress) => EngineProgress;
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
  const { json, finished, view, stopNow } = options;
  const stderr = process.stderr;
  const mode = progressMode({ json, isTTY: Boolean(stderr.isTTY) });
  const reporter = createProgressReporter(stderr, mode);
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
  engine.on('progress', onProgress);
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
): RunSummary {
  const { store, batch } = options;
  // a stop at once comes before the engine settles: the writes of this turn count too
  engine.flushWrites();
  const progress = engine.progress();
  // (the engine's: a data folder that refuses writes could not record its pause)
  const paused = progress.paused ?? (outcome === 'paused' ? STOPPED : null);
  return buildSummary({
    outcome,
    batch,
    libraryDir: options.settings.library,
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
  });
}
