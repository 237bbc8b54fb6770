import { useState } from 'react';
import { useQueueState } from '../../data/app-queries.ts';
import type { Limits } from '../../data/types.ts';
import { useSetLimits } from './queue-actions.ts';

/** Concurrency and the requests-per-minute cap, applied while the queue runs. */
export function LimitsControl() {
  const limits = useQueueState((queue) => queue.limits).data;
  if (!limits) return null;
  // typed values start over whenever the limits change (here or in another window)
  return <LimitsForm key={`${limits.concurrency}/${limits.requestsPerMinute}`} limits={limits} />;
}

function LimitsForm({ limits }: { limits: Limits }) {
  const setLimits = useSetLimits();
  const [concurrency, setConcurrency] = useState(String(limits.concurrency));
  const [rpm, setRpm] = useState(
    limits.requestsPerMinute === null ? '' : String(limits.requestsPerMinute),
  );

  const apply = () => {
    const c = Number(concurrency);
    const r = rpm.trim() === '' ? null : Number(rpm);
    const change: { concurrency?: number; requestsPerMinute?: number | null } = {};
    if (Number.isInteger(c) && c >= 1 && c !== limits.concurrency) change.concurrency = c;
    if ((r === null || (Number.isInteger(r) && r > 0)) && r !== limits.requestsPerMinute) {
      change.requestsPerMinute = r;
    }
    if (Object.keys(change).length === 0) {
      setConcurrency(String(limits.concurrency));
      setRpm(limits.requestsPerMinute === null ? '' : String(limits.requestsPerMinute));
      return;
    }
    void setLimits.run(change);
  };
  const onKey = (event: React.KeyboardEvent) => event.key === 'Enter' && apply();

  return (
    <div className="limits" role="group" aria-label="Limits">
      <label>
        Concurrency
        <input
          type="number"
          min={1}
          max={1024}
          inputMode="numeric"
          value={concurrency}
          onChange={(e) => setConcurrency(e.target.value)}
          onBlur={apply}
          onKeyDown={onKey}
        />
      </label>
      {limits.current > 0 && limits.current < limits.concurrency && (
        // the adaptive pool: lowered after the gateway's 429s, grown back as requests succeed
        <span
          className="muted pool"
          title={`The gateway was rate limiting: the queue sends at most ${limits.current} at once for now, and goes back up to ${limits.concurrency} as requests succeed.`}
        >
          {limits.current} at once for now (rate limited)
        </span>
      )}
      <label>
        Requests/min
        <input
          type="number"
          min={1}
          inputMode="numeric"
          placeholder="no cap"
          value={rpm}
          onChange={(e) => setRpm(e.target.value)}
          onBlur={apply}
          onKeyDown={onKey}
        />
      </label>
    </div>
  );
}
