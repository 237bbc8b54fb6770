import { useEffect } from 'react';
import { toast } from 'sonner';
import type { FinishedNotice } from '../store/state.ts';
import { selectNotices } from '../store/selectors.ts';
import { useAppStore } from '../store/react.ts';
import { navigate } from './navigation.ts';

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
  const ok = jobs.failed === 0 && downloads.failed === 0;
  return { title: `Batch “${notice.name}” finished`, detail: parts.join(', '), ok };
}

/** A toast per batch that finished (the desktop also notifies the system); then forgotten. */
export function FinishedToasts() {
  const notices = useAppStore(selectNotices);
  const dismiss = useAppStore((s) => s.dismissNotice);
  useEffect(() => {
    for (const notice of notices) {
      const { title, detail, ok } = finishedText(notice);
      const show = ok ? toast.success : toast.warning;
      show(title, {
        id: `finished-${notice.batchId}`,
        description: detail,
        action: { label: 'Open queue', onClick: () => navigate('queue') },
      });
      dismiss(notice.batchId);
    }
  }, [notices, dismiss]);
  return null;
}
