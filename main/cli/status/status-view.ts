import type { FailureKind } from '../../../shared/jobs/outcomes.ts';
import type { DownloadCounts } from '../../core/store/image-repository.ts';
import type { PartialSuccessCounts } from '../../core/store/job-queries.ts';
import type { StateCounts } from '../../core/store/job-repository.ts';
import type { PauseKind } from '../../../shared/jobs/pause.ts';
import { resultsHeading, topUpsNote } from '../run/summary.ts';
import { plural } from '../../../shared/text/plural.ts';
import { formatSpend } from '../../../shared/spend/money.ts';

export interface BatchStatus {
  id: number;
  name: string;
  source: string | null;
  createdAt: string;
  /** Where its images are, when the data folder's library is known. */
  folder: string | null;
  /** A paused batch's waiting prompts are not sent, even while the queue runs. */
  paused: { reason: string } | null;
  jobs: StateCounts & { total: number };
  downloads: DownloadCounts;
  /** Of `downloads.failed`: the link had expired (`retry --downloads` asks it again). */
  expiredLinks: number;
  /** Of `downloads.failed`: what the link gave was not an image. */
  notImages?: number;
  /** Failed prompts by why they failed (not-an-image, uncertain…). */
  failures?: Partial<Record<FailureKind, number>>;
  /** Prompts that returned fewer images than asked, not topped up yet (`retry --partial`). */
  partial: PartialSuccessCounts;
  /** Of `jobs.total`, the top-ups (`retry --partial`'s requests for missing images). */
  topUps: number;
  /** Of `jobs.total`, the ones that make videos (their results are counted as `downloads`). */
  videos?: number;
  /** Quota units its results cost, and what may have been charged on top (uncertain). */
  spent?: { units: number; uncertainUnits: number };
}

/** What `atelier status` shows, and prints as is with --json. */
export interface StatusView {
  dataDir: string;
  library: string | null;
  gateway: string | null;
  paused: { reason: string; code: string | null; kind: PauseKind } | null;
  /** A process running this queue now (the desktop app or another `atelier run`). */
  runner: { pid: number; host: string } | null;
  /** What was spent today (the local day), against the saved caps. */
  spend?: {
    day: string;
    units: number;
    uncertainUnits: number;
    money: { code: string; amount: number } | null;
    perDay: number | null;
    perBatch: number | null;
  };
  batches: BatchStatus[];
}

export function pausedView(queue: {
  paused: boolean;
  pauseReason: string | null;
  pauseCode: string | null;
  pauseKind: PauseKind | null;
}): StatusView['paused'] {
  if (!queue.paused) return null;
  return {
    reason: queue.pauseReason ?? 'Paused.',
    code: queue.pauseCode,
    kind: queue.pauseKind ?? 'other',
  };
}

/** Human-readable batches shown; --json lists them all. */
const SHOWN_BATCHES = 20;

export function formatStatus(view: StatusView, commandSuffix: string): string {
  const lines = [`Data folder: ${view.dataDir}`];
  if (view.library) lines.push(`Library:     ${view.library}`);
  if (view.gateway) lines.push(`Gateway:     ${view.gateway}`);
  lines.push(`Queue:       ${queueLine(view)}`);
  if (view.paused) lines.push(`             "atelier resume${commandSuffix}" continues.`);
  if (view.spend) lines.push(`Spent today: ${spendLine(view.spend)}`);
  if (view.batches.length === 0) {
    lines.push('', 'No batches yet. Start one with: atelier run prompts.csv --demo');
    return lines.join('\n');
  }
  for (const batch of view.batches.slice(0, SHOWN_BATCHES)) {
    lines.push('', ...batchLines(batch, commandSuffix));
  }
  const older = view.batches.length - SHOWN_BATCHES;
  if (older > 0) lines.push('', `… and ${older} older batch(es) (--json lists them all).`);
  return lines.join('\n');
}

function queueLine(view: StatusView): string {
  const runner = view.runner
    ? `running now in process ${view.runner.pid} on ${view.runner.host}`
    : '';
  if (view.paused) {
    const paused = `paused (${view.paused.kind}): ${view.paused.reason}`;
    return runner ? `${paused}; ${runner}` : paused;
  }
  return runner || 'not running';
}

function batchLines(batch: BatchStatus, commandSuffix: string): string[] {
  const { jobs, downloads, partial } = batch;
  const source = batch.source ? ` from ${batch.source}` : '';
  const counts = [`${jobs.succeeded} succeeded`];
  if (jobs.failed > 0) counts.push(`${jobs.failed} failed`);
  if (jobs.canceled > 0) counts.push(`${jobs.canceled} canceled`);
  const waiting = jobs.queued + jobs.retrying;
  if (waiting > 0) counts.push(`${waiting} waiting`);
  if (jobs.running > 0) counts.push(`${jobs.running} running`);
  const images = [`${downloads.done} on disk`];
  const notImages = batch.notImages ?? 0;
  const retryable = downloads.failed - batch.expiredLinks - notImages;
  if (retryable > 0) images.push(`${plural(retryable, 'download')} failed`);
  if (notImages > 0) images.push(`${notImages} not an image`);
  if (batch.expiredLinks > 0) images.push(`${batch.expiredLinks} failed on an expired link`);
  const unfinished = downloads.pending + downloads.downloading;
  if (unfinished > 0) images.push(`${unfinished} to download`);
  const lines = [
    `#${batch.id} "${batch.name}"${source}, ${batch.createdAt}`,
    `   prompts: ${counts.join(', ')} (of ${jobs.total}${topUpsNote(batch.topUps)})`,
    `   ${resultsHeading(batch.jobs.total, batch.videos ?? 0)}${images.join(', ')}`,
  ];
  const failed = failedLine(batch.failures ?? {}, `--batch ${batch.id}${commandSuffix}`);
  if (failed) lines.push(`   failed:  ${failed}`);
  if (partial.missingImages > 0) {
    lines.push(
      `   short:   ${partial.jobs} prompt(s) returned ${partial.missingImages} image(s) fewer ` +
        `than asked; "atelier retry --partial --batch ${batch.id}${commandSuffix}" asks for them`,
    );
  }
  if (batch.paused) {
    lines.push(
      `   paused:  ${batch.paused.reason} Its waiting prompts are not sent until resumed.`,
    );
  }
  if (batch.spent && batch.spent.units + batch.spent.uncertainUnits > 0) {
    lines.push(`   spent:   ${spentWords(batch.spent.units, batch.spent.uncertainUnits, null)}`);
  }
  if (batch.folder) lines.push(`   folder:  ${batch.folder}`);
  return lines;
}

/** "3,000 quota units (≈ $0.006); up to 300 quota units more may have been charged". */
function spentWords(
  units: number,
  uncertainUnits: number,
  money: { code: string; amount: number } | null,
): string {
  const said = formatSpend(units, money);
  return uncertainUnits > 0
    ? `${said}; up to ${formatSpend(uncertainUnits, null)} more may have been charged`
    : said;
}

function spendLine(spend: NonNullable<StatusView['spend']>): string {
  const caps: string[] = [];
  if (spend.perDay !== null) {
    const left = Math.max(0, spend.perDay - spend.units - spend.uncertainUnits);
    caps.push(`the day's cap ${formatSpend(spend.perDay, null)}, ${formatSpend(left, null)} left`);
  }
  if (spend.perBatch !== null) caps.push(`${formatSpend(spend.perBatch, null)} a batch`);
  const said = spentWords(spend.units, spend.uncertainUnits, spend.money);
  return caps.length > 0 ? `${said} (${caps.join('; ')})` : said;
}

/**
 * "1 not-an-image, 2 uncertain", and the command for each: why the prompts failed, by kind.
 * Empty when none did.
 */
function failedLine(failures: Partial<Record<FailureKind, number>>, scope: string): string {
  const kinds = Object.entries(failures).filter(([, n]) => n > 0);
  if (kinds.length === 0) return '';
  const uncertain = failures.uncertain ?? 0;
  const total = kinds.reduce((sum, [, n]) => sum + n, 0);
  const how: string[] = [];
  if (total > uncertain) how.push(`"atelier retry --failed ${scope}" sends them again`);
  if (uncertain > 0) how.push(`"atelier retry --uncertain ${scope}" the uncertain ones`);
  return `${kinds.map(([kind, n]) => `${n} ${kind}`).join(', ')}; ${how.join('; ')}`;
}
