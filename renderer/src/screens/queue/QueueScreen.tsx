import { BatchList } from '../../views/BatchList.tsx';
import { QueuePanel } from '../../views/QueuePanel.tsx';

/** The queue: its state and its batches (the job list and bulk actions come next). */
export function QueueScreen() {
  return (
    <div className="screen">
      <QueuePanel />
      <BatchList />
    </div>
  );
}
