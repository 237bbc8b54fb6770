import { plural } from '../text/plural.ts';

/** The counts of a finished batch that its summary reads (the `batch.finished` event's payload). */
export interface FinishedCounts {
  name: string;
  jobs: { succeeded: number; failed: number; canceled: number };
  failures: { uncertain?: number };
  downloads: { failed: number };
  /** Images a job answered with fewer of than it asked. */
  partial: number;
}

/**
 * What a finished batch did, in the words its toast and the system's notification both say:
 * "1,200 generated, 3 failed (2 uncertain: may have been charged), 1 download failed".
 * `ok`: nothing in it needs the person.
 */
export function finishedSummary(batch: FinishedCounts): {
  title: string;
  detail: string;
  ok: boolean;
} {
  const { jobs, downloads } = batch;
  // grouped as plural() groups them: one sentence, one way of writing numbers
  const count = (n: number) => n.toLocaleString('en-US');
  // a prompt answered whose file never arrived is not "done": it was generated, not saved
  const parts = [`${count(jobs.succeeded)} ${downloads.failed > 0 ? 'generated' : 'done'}`];
  const uncertain = batch.failures.uncertain ?? 0;
  if (jobs.failed > 0) {
    parts.push(
      `${count(jobs.failed)} failed` +
        (uncertain > 0 ? ` (${count(uncertain)} uncertain: may have been charged)` : ''),
    );
  }
  if (jobs.canceled > 0) parts.push(`${count(jobs.canceled)} canceled`);
  if (downloads.failed > 0) parts.push(`${plural(downloads.failed, 'download')} failed`);
  if (batch.partial > 0) parts.push(`${plural(batch.partial, 'image')} missing`);
  const ok =
    jobs.failed === 0 && jobs.canceled === 0 && downloads.failed === 0 && batch.partial === 0;
  const ended = jobs.succeeded === 0 && jobs.canceled > 0 ? 'was canceled' : 'finished';
  return { title: `Batch “${batch.name}” ${ended}`, detail: parts.join(', '), ok };
}
