import { toast } from 'sonner';
import { useEvent } from '../data/data-context.ts';
import type { FinishedNotice } from '../data/types.ts';
import { navigate, screenOf } from './navigation.ts';

/** What a finished batch's toast says: its counts, and what failed. */
export function finishedText(notice: FinishedNotice): {
  title: string;
  detail: string | null;
  ok: boolean;
} {
  const { jobs, downloads } = notice;
  const parts = [`${jobs.succeeded.toLocaleString()} done`];
  const uncertain = notice.failures.uncertain ?? 0;
  if (jobs.failed > 0) {
    parts.push(
      `${jobs.failed.toLocaleString()} failed` +
        (uncertain > 0 ? ` (${uncertain.toLocaleString()} uncertain: may have been charged)` : ''),
    );
  }
  if (jobs.canceled > 0) parts.push(`${jobs.canceled.toLocaleString()} canceled`);
  if (downloads.failed > 0) {
    const n = downloads.failed;
    parts.push(`${n.toLocaleString()} download${n === 1 ? '' : 's'} failed`);
  }
  const ok = jobs.failed === 0 && downloads.failed === 0 && jobs.canceled === 0;
  const ended = jobs.succeeded === 0 && jobs.canceled > 0 ? 'was canceled' : 'finished';
  return { title: `Batch “${notice.name}” ${ended}`, detail: parts.join(', '), ok };
}

/** The toast's way to the Queue, unless the Queue is open already (its card is in sight). */
export function openQueueAction(hash: string) {
  if (screenOf(hash) === 'queue') return undefined;
  return { label: 'Open queue', onClick: () => navigate('queue') };
}

/** A toast per batch that finished (the desktop also notifies the system). */
export function FinishedToasts() {
  useEvent('batch.finished', ({ payload }) => {
    const { title, detail, ok } = finishedText(payload);
    const show = ok ? toast.success : toast.warning;
    show(title, {
      id: `finished-${payload.batchId}`,
      description: detail,
      action: openQueueAction(window.location.hash),
    });
  });
  return null;
}
