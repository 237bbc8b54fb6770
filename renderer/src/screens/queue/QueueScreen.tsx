import { useEffect, useState } from 'react';
import { useAppStore } from '../../store/react.ts';
import { BatchList } from './BatchList.tsx';
import { ConfirmDialog, type ConfirmRequest } from '../../views/ConfirmDialog.tsx';
import { FailureGroups } from './FailureGroups.tsx';
import { JobDetails } from './JobDetails.tsx';
import { JobList, type JobFilter } from './JobList.tsx';
import { PauseBanner } from './PauseBanner.tsx';
import { QueueHeader } from './QueueHeader.tsx';
import './queue.css';

/** Watching and steering the queue: batches, their jobs, failures and what to do about them. */
export function QueueScreen() {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  return (
    <div className="screen queue-screen">
      <PauseBanner />
      <QueueHeader confirm={setRequest} />
      <BatchList confirm={setRequest} />
      <SelectedBatch confirm={setRequest} />
      <ConfirmDialog request={request} onClose={() => setRequest(null)} />
    </div>
  );
}

function SelectedBatch({ confirm }: { confirm: (request: ConfirmRequest) => void }) {
  const batch = useAppStore((s) =>
    s.selectedBatchId === null ? undefined : s.batches.get(s.selectedBatchId),
  );
  const [filter, setFilter] = useState<JobFilter>('all');
  const [activeJob, setActiveJob] = useState<number | null>(null);
  const batchId = batch?.id;
  useEffect(() => {
    setFilter('all');
    setActiveJob(null);
  }, [batchId]);
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
