import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { JobPlan } from './matrix.ts';
import { MAX_ROWS } from './source.ts';

interface Props {
  plan: JobPlan;
  /** The service's refusals by job number (1-based). */
  rowErrors: ReadonlyMap<number, string>;
}

const ROW_HEIGHT = 52;

/** Every expanded job, virtualized: a plan of 100,000 jobs renders the visible few. */
export function JobPreview({ plan, rowErrors }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: plan.count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  return (
    <>
      {plan.count > MAX_ROWS && (
        <p className="notice notice-warning compose-cap" role="note">
          {plan.count.toLocaleString('en-US')} jobs is past {MAX_ROWS.toLocaleString('en-US')}: the
          batch is sent as one JSON Lines text. Check the estimate before running.
        </p>
      )}
      <div
        ref={scroller}
        className="compose-preview"
        role="list"
        aria-label="Expanded jobs"
        tabIndex={0}
      >
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((item) => {
            const job = plan.at(item.index);
            const error = rowErrors.get(item.index + 1);
            return (
              <div
                key={item.key}
                ref={virtual.measureElement}
                data-index={item.index}
                role="listitem"
                className={`compose-job${error ? ' compose-job-bad' : ''}`}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <span className="compose-job-number">{item.index + 1}</span>
                <span className="compose-job-body">
                  <span className="compose-job-prompt" title={job.prompt}>
                    {job.prompt}
                  </span>
                  <span className="compose-job-params">
                    {error ?? (
                      <>
                        {job.model}
                        {job.size && ` · ${job.size}`}
                        {job.seed !== undefined && ` · seed ${job.seed}`}
                        {job.n > 1 && ` · n ${job.n}`}
                        {job.seconds !== undefined && ` · ${job.seconds} s`}
                        {job.quality && ` · ${job.quality}`}
                        {job.outputFormat && ` · ${job.outputFormat}`}
                      </>
                    )}
                  </span>
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </>
  );
}
