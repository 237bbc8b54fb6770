import { toast } from 'sonner';
import { useEvent } from '../data/data-context.ts';
import { finishedSummary } from '../../../shared/jobs/finished-summary.ts';
import { navigate, screenOf } from './navigation.ts';

/** The toast's way to the Queue, unless the Queue is open already (its card is in sight). */
export function openQueueAction(hash: string) {
  if (screenOf(hash) === 'queue') return undefined;
  return { label: 'Open queue', onClick: () => navigate('queue') };
}

/** A toast per batch that finished (the desktop also notifies the system). */
export function FinishedToasts() {
  useEvent('batch.finished', ({ payload }) => {
    const { title, detail, ok } = finishedSummary(payload);
    const show = ok ? toast.success : toast.warning;
    show(title, {
      id: `finished-${payload.batchId}`,
      description: detail,
      action: openQueueAction(window.location.hash),
    });
  });
  return null;
}
