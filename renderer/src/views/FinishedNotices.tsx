import type { FinishedNotice } from '../store/state.ts';
import { selectNotices } from '../store/selectors.ts';
import { useAppStore } from '../store/react.ts';

/** A toast per batch that finished, until dismissed. */
export function FinishedNotices() {
  const notices = useAppStore(selectNotices);
  const dismiss = useAppStore((s) => s.dismissNotice);
  return (
    <ul className="toasts" aria-live="polite" aria-label="Finished batches">
      {notices.map((notice) => (
        <li key={notice.batchId} className="toast">
          <span>{finishedText(notice)}</span>
          <button
            type="button"
            aria-label={`Dismiss the notice for ${notice.name}`}
            onClick={() => dismiss(notice.batchId)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** "Batch “cats” finished: 120 done, 3 failed (2 uncertain)." */
export function finishedText(notice: FinishedNotice): string {
  const { jobs, failures } = notice;
  const parts = [`${jobs.succeeded.toLocaleString()} done`];
  if (jobs.failed > 0) {
    const uncertain = failures.uncertain ?? 0;
    parts.push(
      `${jobs.failed.toLocaleString()} failed${uncertain ? ` (${uncertain} uncertain)` : ''}`,
    );
  }
  if (jobs.canceled > 0) parts.push(`${jobs.canceled.toLocaleString()} canceled`);
  if (notice.downloads.failed > 0) parts.push(`${notice.downloads.failed} downloads failed`);
  return `Batch “${notice.name}” finished: ${parts.join(', ')}.`;
}
