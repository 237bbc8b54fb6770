import type { FailureKind } from '../../../shared/jobs/outcomes.ts';
import type { DownloadCounts } from '../../core/store/imageRepository.ts';
import type { StateCounts } from '../../core/store/jobRepository.ts';
import { exitCodeFor } from './exit-code.ts';
import { formatWallTime } from './format-time.ts';
import { PAUSE_FIX, pauseKind, type PauseKind } from './pause-kind.ts';

/** How the run ended: all work settled, the queue paused by a problem, or Ctrl+C. */
export type RunOutcome = 'done' | 'paused' | 'interrupted';

export interface SummaryInput {
  outcome: RunOutcome;
  /** The batch `atelier run` imported; null for resume and retry (the whole data folder). */
  batch: { id: number; name: string; dirName: string } | null;
  libraryDir: string;
  jobs: StateCounts;
  downloads: DownloadCounts;
  failures: Partial<Record<FailureKind, number>>;
  stats: { requestsSent: number; imagesWritten: number; bytesWritten: number };
  wallTimeMs: number;
  paused: { reason: string; code: string | null } | null;
}

/** The one object `--json` prints, and what the human summary is made from. */
export interface RunSummary {
  outcome: RunOutcome;
  exitCode: number;
  batch: { id: number; name: string; folder: string } | null;
  library: string;
  jobs: StateCounts & { total: number };
  /** Failed prompts by why they failed (uncertain ones need `retry --uncertain`). */
  failures: Partial<Record<FailureKind, number>>;
  images: {
    /** Written to disk by this process. */
    written: number;
    /** On disk in the summary's scope (this batch, or the whole data folder). */
    onDisk: number;
    failedDownloads: number;
    pendingDownloads: number;
  };
  requestsSent: number;
  bytesWritten: number;
  wallTimeMs: number;
  /** Why the queue is paused; `kind` says which problem (auth, balance…) in one word. */
  paused: { reason: string; code: string | null; kind: PauseKind } | null;
}

export function buildSummary(input: SummaryInput): RunSummary {
  const { jobs, downloads } = input;
  const total = Object.values(jobs).reduce((sum, n) => sum + n, 0);
  const summary: Omit<RunSummary, 'exitCode'> = {
    outcome: input.outcome,
    batch: input.batch && {
      id: input.batch.id,
      name: input.batch.name,
      folder: joinFolder(input.libraryDir, input.batch.dirName),
    },
    library: input.libraryDir,
    jobs: { ...jobs, total },
    failures: input.failures,
    images: {
      written: input.stats.imagesWritten,
      onDisk: downloads.done,
      failedDownloads: downloads.failed,
      pendingDownloads: downloads.pending + downloads.downloading,
    },
    requestsSent: input.stats.requestsSent,
    bytesWritten: input.stats.bytesWritten,
    wallTimeMs: Math.round(input.wallTimeMs),
    paused:
      input.outcome === 'done' || !input.paused
        ? null
        : { ...input.paused, kind: pauseKind(input.paused.code) },
  };
  return { ...summary, exitCode: exitCodeFor(summary) };
}

/** A failed prompt worth showing by name: what went wrong and the id support asks for. */
export interface FailedExample {
  position: number;
  prompt: string;
  message: string | null;
  requestId: string | null;
}

export interface SummaryTextOptions {
  /** Added to each suggested command, e.g. " --data ./work" when not the default folder. */
  commandSuffix: string;
  failedExamples: readonly FailedExample[];
}

/** The summary for a person: where the images are, what failed and which command retries it. */
export function formatSummary(summary: RunSummary, options: SummaryTextOptions): string {
  const { jobs, images, failures } = summary;
  const lines: string[] = [headline(summary)];
  const notStarted = jobs.queued + jobs.retrying + jobs.running;
  const counts = [`${jobs.succeeded} succeeded`];
  if (jobs.failed > 0) counts.push(`${jobs.failed} failed`);
  if (jobs.canceled > 0) counts.push(`${jobs.canceled} canceled`);
  if (notStarted > 0) counts.push(`${notStarted} not finished`);
  lines.push(`Prompts: ${counts.join(', ')} (of ${jobs.total}).`);
  const where = summary.batch?.folder ?? summary.library;
  lines.push(`Images:  ${images.onDisk} in ${where}`);
  if (images.failedDownloads > 0) {
    lines.push(`         ${images.failedDownloads} could not be downloaded.`);
  }
  lines.push(`Requests sent: ${summary.requestsSent}.`);

  if (options.failedExamples.length > 0) {
    lines.push('', 'Failed:');
    for (const example of options.failedExamples) lines.push(`  ${describeFailure(example)}`);
    const more = jobs.failed - options.failedExamples.length;
    if (more > 0) lines.push(`  … and ${more} more (atelier status shows the counts).`);
  }

  const next = nextSteps(summary, failures, options.commandSuffix);
  if (next.length > 0) lines.push('', 'Next:', ...next.map((step) => `  ${step}`));
  return lines.join('\n');
}

function headline(summary: RunSummary): string {
  const took = formatWallTime(summary.wallTimeMs);
  const { jobs } = summary;
  if (summary.outcome === 'interrupted') {
    return `Paused by Ctrl+C after ${took}; the requests in flight were allowed to finish.`;
  }
  if (summary.outcome === 'paused') {
    const kind = summary.paused?.kind ?? 'other';
    return `The queue paused after ${took} (${kind}): ${summary.paused?.reason ?? 'paused.'}`;
  }
  if (summary.exitCode === 0) {
    return `Done in ${took}: all ${jobs.total} prompts succeeded, ${summary.images.written} images written.`;
  }
  return (
    `Finished in ${took}: ${jobs.succeeded} of ${jobs.total} prompts succeeded, ` +
    `${summary.images.written} images written; not everything worked (below).`
  );
}

function describeFailure(example: FailedExample): string {
  const prompt = example.prompt.length > 40 ? `${example.prompt.slice(0, 39)}…` : example.prompt;
  const message = example.message ?? 'failed';
  // the engine's messages often name the request id already
  const id =
    example.requestId && !message.includes(example.requestId)
      ? ` [request id ${example.requestId}]`
      : '';
  return `#${example.position} "${prompt}": ${message}${id}`;
}

function nextSteps(
  summary: RunSummary,
  failures: Partial<Record<FailureKind, number>>,
  suffix: string,
): string[] {
  const steps: string[] = [];
  const uncertain = failures.uncertain ?? 0;
  const plainFailed = summary.jobs.failed - uncertain;
  if (summary.outcome === 'paused' && summary.paused) {
    steps.push(`${PAUSE_FIX[summary.paused.kind]} then: atelier resume${suffix}`);
  } else if (
    summary.outcome === 'interrupted' ||
    summary.jobs.queued + summary.jobs.retrying + summary.jobs.running > 0 ||
    summary.images.pendingDownloads > 0
  ) {
    steps.push(`atelier resume${suffix}          carries on with the unfinished work`);
  }
  if (plainFailed > 0) {
    steps.push(
      `atelier retry --failed${suffix}     sends the ${plainFailed} failed prompt(s) again`,
    );
  }
  if (uncertain > 0) {
    steps.push(
      `atelier retry --uncertain${suffix}  sends the ${uncertain} prompt(s) whose outcome is ` +
        'uncertain again (they may already have been generated and charged: check the request ids first)',
    );
  }
  if (summary.images.failedDownloads > 0) {
    steps.push(
      `atelier retry --downloads${suffix}  fetches the ${summary.images.failedDownloads} ` +
        'failed download(s) again, without generating anything',
    );
  }
  return steps;
}

function joinFolder(library: string, dirName: string): string {
  const separator = library.includes('\\') && !library.includes('/') ? '\\' : '/';
  return library.endsWith(separator) ? library + dirName : `${library}${separator}${dirName}`;
}
