import type { FailureKind } from '../../../shared/jobs/outcomes.ts';
import { printable } from '../../../shared/text/printable.ts';
import type { DownloadCounts } from '../../core/store/image-repository.ts';
import type { PartialSuccessCounts } from '../../core/store/job-queries.ts';
import type { StateCounts } from '../../core/store/job-repository.ts';
import { exitCodeFor, type RunOutcome } from './exit-code.ts';
import type { FailedDownloadExample } from '../../core/store/image-repository.ts';
import { formatWallTime } from './format-time.ts';
import { signalName, type StopSignal } from './interrupt.ts';
import type { PauseKind } from '../../../shared/jobs/pause.ts';
import { PAUSE_FIX } from './pause-kind.ts';
import { formatSpend } from '../../../shared/spend/money.ts';
import { resultWords } from '../../../shared/jobs/words.ts';

export type { RunOutcome };

export interface SummaryInput {
  outcome: RunOutcome;
  /** The batch `atelier run` imported; null for resume and retry (the whole data folder). */
  batch: { id: number; name: string; dirName: string } | null;
  libraryDir: string;
  jobs: StateCounts;
  downloads: DownloadCounts;
  failures: Partial<Record<FailureKind, number>>;
  /** Prompts that returned fewer images than asked and are not topped up yet. */
  partial: PartialSuccessCounts;
  /** Of the jobs, the top-ups: requests for a partial success's missing images. */
  topUps: number;
  /** Failed downloads whose link had expired (also counted in `downloads.failed`). */
  expiredLinks: number;
  /** Failed downloads whose body was not an image (also counted in `downloads.failed`). */
  notImages?: number;
  /** Of the jobs, the ones that make videos (a video batch's summary counts videos). */
  videos?: number;
  stats: { requestsSent: number; imagesWritten: number; bytesWritten: number };
  wallTimeMs: number;
  paused: { reason: string; code: string | null; kind: PauseKind } | null;
  /** What the start said (a pause lifted, uncertain prompts found…); stderr without --json. */
  notes: string[];
  /** The signal that interrupted the run, which sets the exit code (SIGINT when not said). */
  signal?: StopSignal | null;
  /** What the batch (or, for resume and retry, this command) spent. */
  spend?: RunSummary['spend'];
}

/** The one object `--json` prints, and what the human summary is made from. */
export interface RunSummary {
  outcome: RunOutcome;
  exitCode: number;
  batch: { id: number; name: string; folder: string } | null;
  library: string;
  jobs: StateCounts & { total: number };
  /** Of `jobs.total`, the ones that make videos: their results are counted in `images` too. */
  videoJobs: number;
  /** Failed prompts by why they failed (uncertain ones need `retry --uncertain`). */
  failures: Partial<Record<FailureKind, number>>;
  images: {
    /** Written to disk by this process. */
    written: number;
    /** On disk in the summary's scope (this batch, or the whole data folder). */
    onDisk: number;
    /** Every failed download, expired links included. */
    failedDownloads: number;
    pendingDownloads: number;
    /** Of failedDownloads: the link had expired (`retry --downloads` asks it again). */
    expiredLinks: number;
    /** Of failedDownloads: what the link gave was not an image (an error page, a text…). */
    notImages: number;
  };
  /** Prompts that returned fewer images than asked, not topped up yet (`retry --partial`). */
  partial: PartialSuccessCounts;
  /** Of `jobs.total`, the top-ups (`retry --partial`'s requests for missing images). */
  topUps: number;
  requestsSent: number;
  bytesWritten: number;
  wallTimeMs: number;
  /** Why the queue is paused; `kind` says which problem (auth, balance…) in one word. */
  paused: { reason: string; code: string | null; kind: PauseKind } | null;
  /** What the start said: a pause it lifted, prompts found uncertain, downloads resumed. */
  notes: string[];
  /**
   * What the batch `run` made spent, or what this command spent (resume, retry): quota units
   * of the results at the prices then, results of unpriced models, and what may have been
   * charged (uncertain outcomes).
   */
  spend: {
    units: number;
    money: { code: string; amount: number } | null;
    unpriced: number;
    uncertainUnits: number;
  };
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
    videoJobs: input.videos ?? 0,
    failures: input.failures,
    images: {
      written: input.stats.imagesWritten,
      onDisk: downloads.done,
      failedDownloads: downloads.failed,
      pendingDownloads: downloads.pending + downloads.downloading,
      expiredLinks: input.expiredLinks,
      notImages: input.notImages ?? 0,
    },
    partial: input.partial,
    topUps: input.topUps,
    requestsSent: input.stats.requestsSent,
    bytesWritten: input.stats.bytesWritten,
    wallTimeMs: Math.round(input.wallTimeMs),
    paused: input.outcome === 'done' || !input.paused ? null : input.paused,
    notes: input.notes,
    spend: input.spend ?? { units: 0, money: null, unpriced: 0, uncertainUnits: 0 },
  };
  return { ...summary, exitCode: exitCodeFor({ ...summary, signal: input.signal ?? null }) };
}

/** A failed prompt worth showing by name: what went wrong and the id support asks for. */
export interface FailedExample {
  position: number;
  prompt: string;
  message: string | null;
  requestId: string | null;
}

/** An image whose link had expired: its prompt, and which of its images. */
export interface ExpiredExample {
  position: number;
  prompt: string;
  image: number;
}

export interface SummaryTextOptions {
  /** Added to each suggested command, e.g. " --data ./work" when not the default folder. */
  commandSuffix: string;
  failedExamples: readonly FailedExample[];
  expiredExamples: readonly ExpiredExample[];
  /** Failed downloads, expired links left out, with their reason. */
  failedDownloadExamples?: readonly FailedDownloadExample[];
  /** A second Ctrl+C: the requests in flight were cut off, not allowed to finish. */
  stoppedAtOnce?: boolean;
  /** The signal that paused the run, or stopped it at once (SIGINT, Ctrl+C, when not said). */
  signal?: StopSignal | null;
}

/** How many examples of each kind the summary names. */
export const SUMMARY_EXAMPLES = 5;

/** The summary for a person: where the images are, what failed and which command retries it. */
export function formatSummary(summary: RunSummary, options: SummaryTextOptions): string {
  const { jobs, images, failures } = summary;
  const lines: string[] = [
    headline(summary, options.stoppedAtOnce ?? false, options.signal ?? 'SIGINT'),
  ];
  const notStarted = jobs.queued + jobs.retrying + jobs.running;
  const counts = [`${jobs.succeeded} succeeded`];
  if (jobs.failed > 0) counts.push(`${jobs.failed} failed`);
  if (jobs.canceled > 0) counts.push(`${jobs.canceled} canceled`);
  if (notStarted > 0) counts.push(`${notStarted} not finished`);
  lines.push(`Prompts: ${counts.join(', ')} (of ${jobs.total}${topUpsNote(summary.topUps)}).`);
  const where = summary.batch?.folder ?? summary.library;
  lines.push(`${resultsLabel(summary)}${images.onDisk} in ${where}`, ...missingImageLines(summary));
  lines.push(`Requests sent: ${summary.requestsSent}.`, ...spendLines(summary.spend));

  lines.push(...exampleLines('Failed:', options.failedExamples.map(describeFailure), jobs.failed));
  lines.push(
    ...exampleLines(
      'Downloads that failed:',
      (options.failedDownloadExamples ?? []).map(describeFailedDownload),
      images.failedDownloads - images.expiredLinks,
    ),
  );
  lines.push(
    ...exampleLines(
      'Link expired:',
      options.expiredExamples.map(describeExpired),
      images.expiredLinks,
    ),
  );

  const next = nextSteps(summary, failures, options.commandSuffix);
  if (next.length > 0) lines.push('', 'Next:', ...next.map((step) => `  ${step}`));
  return lines.join('\n');
}

function headline(summary: RunSummary, stoppedAtOnce: boolean, signal: StopSignal): string {
  const took = formatWallTime(summary.wallTimeMs);
  const { jobs } = summary;
  if (summary.outcome === 'interrupted' && stoppedAtOnce) {
    const cutOff = jobs.running > 0 ? `, ${jobs.running} prompt(s) still in flight` : '';
    const by = signal === 'SIGINT' ? 'a second Ctrl+C' : signal;
    return `Stopped at once by ${by} after ${took}${cutOff}.`;
  }
  if (summary.outcome === 'interrupted') {
    return (
      `Paused by ${signalName(signal)} after ${took}; the requests in flight were allowed to ` +
      'finish.'
    );
  }
  if (summary.outcome === 'paused') {
    const kind = summary.paused?.kind ?? 'other';
    return `The queue paused after ${took} (${kind}): ${summary.paused?.reason ?? 'paused.'}`;
  }
  const requests = requestsNoun(jobs.total, summary.topUps);
  const written = `${summary.images.written} ${summaryWords(summary).many} written`;
  if (summary.exitCode === 0) return `Done in ${took}: all ${requests} succeeded, ${written}.`;
  return (
    `Finished in ${took}: ${jobs.succeeded} of ${requests} succeeded, ` +
    `${written}; not everything worked (below).`
  );
}

/** Images, videos, or both: what this summary's jobs make. */
function summaryWords(summary: RunSummary) {
  return resultWords(summary.jobs.total, summary.videoJobs);
}

const RESULTS_INDENT = 9;

/**
 * What a line of results is headed by: "images", "videos", or "results" for a mix of both,
 * with its colon, as wide as the heading "prompts:" (the summary's and status's lines align).
 */
export function resultsHeading(jobs: number, videos: number): string {
  const { many } = resultWords(jobs, videos);
  return `${many.includes(' ') ? 'results' : many}:`.padEnd(RESULTS_INDENT);
}

/** "Images:  ", "Videos:  ", or "Results: ": the lines below it are indented as far. */
function resultsLabel(summary: RunSummary): string {
  const heading = resultsHeading(summary.jobs.total, summary.videoJobs);
  return `${heading.charAt(0).toUpperCase()}${heading.slice(1)}`;
}

/** "12 prompts", or, once some are top-ups, "14 requests (12 prompts, 2 top-ups)". */
function requestsNoun(total: number, topUps: number): string {
  if (topUps === 0) return `${total} prompts`;
  return `${total} requests (${total - topUps} prompts, ${topUps} top-up${topUps === 1 ? '' : 's'})`;
}

/** Top-ups are jobs too: said, so that two prompts do not read as four. */
export function topUpsNote(topUps: number): string {
  return topUps === 0 ? '' : `, ${topUps} of them top-up${topUps === 1 ? '' : 's'}`;
}

/** The images a person expected and does not have, each kind with its own cause. */
function missingImageLines({ images, partial }: RunSummary): string[] {
  const lines: string[] = [];
  if (partial.missingImages > 0) {
    lines.push(
      `${partial.missingImages} not returned: ${partial.jobs} prompt(s) got fewer images than asked.`,
    );
  }
  const retryable = images.failedDownloads - images.expiredLinks - images.notImages;
  if (retryable > 0) lines.push(`${retryable} could not be downloaded.`);
  if (images.notImages > 0) {
    lines.push(`${images.notImages} were not images: the link gave something else (below).`);
  }
  if (images.expiredLinks > 0) {
    lines.push(`${images.expiredLinks} could not be downloaded because the link had expired.`);
  }
  return lines.map((line) => `${' '.repeat(RESULTS_INDENT)}${line}`);
}

/** "Spent: 3,000 quota units (≈ $0.006)", with what is unpriced or may have been charged. */
function spendLines(spend: RunSummary['spend']): string[] {
  if (spend.units === 0 && spend.unpriced === 0 && spend.uncertainUnits === 0) return [];
  const parts = [formatSpend(spend.units, spend.money)];
  if (spend.unpriced > 0) {
    parts.push(`${spend.unpriced} result${spend.unpriced === 1 ? '' : 's'} of unpriced models`);
  }
  if (spend.uncertainUnits > 0) {
    parts.push(`up to ${formatSpend(spend.uncertainUnits, null)} more may have been charged`);
  }
  return [`Spent: ${parts.join('; ')}.`];
}

/** A titled list of the first examples, and how many more there are. */
function exampleLines(title: string, described: readonly string[], total: number): string[] {
  if (described.length === 0) return [];
  const lines = ['', title, ...described.map((line) => `  ${line}`)];
  const more = total - described.length;
  if (more > 0) lines.push(`  … and ${more} more (atelier status shows the counts).`);
  return lines;
}

function describeFailure(example: FailedExample): string {
  // the gateway's words, like the prompt, are quoted: never a raw control character
  const message = printable(example.message ?? 'failed');
  // the engine's messages often name the request id already
  const id =
    example.requestId && !message.includes(example.requestId)
      ? ` [request id ${example.requestId}]`
      : '';
  return `#${example.position} "${shortPrompt(example.prompt)}": ${message}${id}`;
}

function describeFailedDownload(example: FailedDownloadExample): string {
  const where = `#${example.position} "${shortPrompt(example.prompt)}", image ${example.image}`;
  return `${where}: ${example.reason ?? 'failed'}`;
}

function describeExpired(example: ExpiredExample): string {
  return `#${example.position} "${shortPrompt(example.prompt)}", image ${example.image}`;
}

function shortPrompt(prompt: string): string {
  return printable(prompt.length > 40 ? `${prompt.slice(0, 39)}…` : prompt);
}

function nextSteps(
  summary: RunSummary,
  failures: Partial<Record<FailureKind, number>>,
  suffix: string,
): string[] {
  const steps: string[] = [];
  const { jobs, images, partial } = summary;
  const uncertain = failures.uncertain ?? 0;
  const plainFailed = jobs.failed - uncertain;
  if (summary.outcome === 'paused' && summary.paused) {
    steps.push(`${PAUSE_FIX[summary.paused.kind]} then: atelier resume${suffix}`);
  } else if (
    summary.outcome === 'interrupted' ||
    jobs.queued + jobs.retrying + jobs.running > 0 ||
    images.pendingDownloads > 0
  ) {
    steps.push(suggest('atelier resume', suffix, 'carries on with the unfinished work'));
  }
  if (plainFailed > 0) {
    steps.push(
      suggest('atelier retry --failed', suffix, `sends the ${plainFailed} failed prompt(s) again`),
    );
  }
  if (uncertain > 0) {
    steps.push(
      suggest(
        'atelier retry --uncertain',
        suffix,
        `sends the ${uncertain} prompt(s) whose outcome is uncertain again (they may already ` +
          'have been generated and charged: check the request ids first)',
      ),
    );
  }
  if (partial.missingImages > 0) {
    steps.push(
      suggest(
        'atelier retry --partial',
        suffix,
        `asks for the ${partial.missingImages} image(s) that ${partial.jobs} prompt(s) did not ` +
          'return (new generation requests, charged)',
      ),
    );
  }
  if (images.notImages > 0) {
    steps.push(
      suggest(
        'atelier retry --failed',
        suffix,
        `asks again for the ${images.notImages} image(s) whose link gave no image (new ` +
          'generation requests, charged)',
      ),
    );
  }
  const fetchable = images.failedDownloads - images.notImages;
  if (fetchable > 0) {
    const expired =
      images.expiredLinks > 0
        ? ` (${images.expiredLinks} whose link had expired: some stores answer later)`
        : '';
    steps.push(
      suggest(
        'atelier retry --downloads',
        suffix,
        `fetches the ${fetchable} failed download(s) again${expired}, without ` +
          'generating anything',
      ),
    );
  }
  if (images.expiredLinks > 0) steps.push(EXPIRED_LINK_ADVICE);
  return steps;
}

/**
 * What getting an image whose link stays expired takes: its prompt succeeded, so
 * `retry --failed` does not pick it up; only a new generation brings it.
 */
const EXPIRED_LINK_ADVICE =
  'If a link still answers that it expired, "atelier retry --failed" does not apply (their ' +
  'prompts succeeded). Getting those images means generating them again, a new paid request: ' +
  'run those prompts again with "atelier run". With --response-format b64_json the images ' +
  'come inside the answer, with no link to expire.';

/** Suggested commands line up, whatever the data folder suffix. */
const COMMAND_WIDTH = 'atelier retry --downloads'.length;

function suggest(command: string, suffix: string, what: string): string {
  return `${command}${suffix}${' '.repeat(COMMAND_WIDTH - command.length)}  ${what}`;
}

function joinFolder(library: string, dirName: string): string {
  const separator = library.includes('\\') && !library.includes('/') ? '\\' : '/';
  return library.endsWith(separator) ? library + dirName : `${library}${separator}${dirName}`;
}
