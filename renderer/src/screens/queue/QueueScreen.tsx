import { useState } from 'react';
import { ConfirmDialog, type ConfirmRequest } from '../../views/ConfirmDialog.tsx';
import { BatchList } from './BatchList.tsx';
import { FailureGroups } from './FailureGroups.tsx';
import { JobDetails } from './JobDetails.tsx';
import type { JobFilter } from './job-filters.ts';
import { JobList } from './JobList.tsx';
import { PauseBanner } from './PauseBanner.tsx';
import { QueueHeader } from './QueueHeader.tsx';
import { useBatchSummary } from './queue-queries.ts';
import { queueUi } from './queue-state.ts';
import './queue.css';

/** Watching and steering the queue: batches, their jobs, failures and what to do about them. */
export function QueueScreen() {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const selected = queueUi.useSelect((s) => s.selectedBatchId);
  return (
    <div className="screen queue-screen">
      <PauseBanner />
      <QueueHeader confirm={setRequest} />
      <BatchList confirm={setRequest} />
      {/* keyed: another batch starts on its "All" filter with no job open */}
      {selected !== null && <SelectedBatch key={selected} id={selected} confirm={setRequest} />}
      <ConfirmDialog request={request} onClose={() => setRequest(null)} />
    </div>
  );
}

function SelectedBatch({
  id,
  confirm,
}: {
  id: number;
  confirm: (request: ConfirmRequest) => void;
}) {
  const batch = useBatchSummary(id);
  const [filter, setFilter] = useState<JobFilter>('all');
  const [activeJob, setActiveJob] = useState<number | null>(null);
  if (!batch) return null;
  return (
    <>
      <FailureGroups batch={batch} confirm={confirm} showFailed={() => setFilter('failed')} />
      <div className={`job-area${activeJob !== null ? ' with-details' : ''}`}>
        <JobList
          batch={batch}
          filter={filter}
          setFilter={setFilter}
          activeJob={activeJob}
          setActiveJob={setActiveJob}
          confirm={confirm}
        />
        {activeJob !== null && <JobDetails jobId={activeJob} onClose={() => setActiveJob(null)} />}
      </div>
    </>
  );
}
