import { useId, useState, type FormEvent } from 'react';
import { capName, type BudgetStop } from '../../../../shared/spend/budget.ts';
import { formatMoney, formatUnits } from '../../../../shared/spend/money.ts';
import { useQuery } from '@tanstack/react-query';
import { useQueueState, useSettings } from '../../data/app-queries.ts';
import { useData } from '../../data/data-context.ts';
import { keys } from '../../data/keys.ts';
import { parseAmount } from '../../views/spend-fields.ts';
import type { Settings } from '../../data/types.ts';
import { useRaiseCap, useRunOverBudget } from './queue-actions.ts';

/** Units, and money where the settings give a currency: "3,000 quota units (≈ $0.006)". */
function SpendText({ units, settings }: { units: number; settings: Settings | undefined }) {
  const currency = settings?.currency ?? null;
  return (
    <>
      {formatUnits(units)} quota units
      {currency && (
        <span className="spend-money">
          {' '}
          (≈ {formatMoney({ code: currency.code, amount: units * currency.perUnit })})
        </span>
      )}
    </>
  );
}

/**
 * What was spent against the cap now: the pause's own figures were taken as it paused, with
 * requests still in flight; the batch's and today's spend follow the queue's events. (A
 * gateway's day keeps the pause's figures, spent and in flight together.)
 */
function useSpentNow(stop: BudgetStop): number {
  const { api } = useData();
  const batchId = stop.scope === 'batch' ? Number(stop.key) : 0;
  const batch = useQuery({
    queryKey: keys.batch(batchId),
    queryFn: () => api.batches.get({ id: batchId }),
    enabled: batchId > 0,
  }).data;
  const today = useQueueState().data?.progress.spentToday;
  const spent = stop.scope === 'batch' ? batch?.spent : stop.scope === 'day' ? today : undefined;
  return spent ? spent.units + spent.uncertainUnits : stop.spent + stop.inFlight;
}

/** The settings' budget with the cap that stopped the queue set to `cap`. */
export function budgetWithCap(
  budget: Settings['budget'],
  stop: Pick<BudgetStop, 'scope' | 'key'>,
  cap: number,
): Settings['budget'] | null {
  switch (stop.scope) {
    case 'batch':
      return { ...budget, perBatch: cap };
    case 'day':
      return { ...budget, perDay: cap };
    case 'gateway-day': {
      // the key is `gateway|day`: the cap is the gateway's, every day
      const gateway = stop.key.slice(0, stop.key.lastIndexOf('|'));
      return { ...budget, perGatewayDay: { ...budget.perGatewayDay, [gateway]: cap } };
    }
    case 'run':
      return null; // a command's own --max-spend: not a setting
  }
}

/** A cap as typed: a number of quota units that lets the next request through. */
export function newCapProblem(text: string, needed: number): string | null {
  const value = parseAmount(text);
  if (value === null || value === undefined) return 'A number of quota units, as 10,000.';
  if (value < needed) {
    return `The next request needs a cap of at least ${formatUnits(needed)} quota units.`;
  }
  return null;
}

/**
 * A budget pause: the cap, what was spent against it, the next request's cost, and the two
 * ways on: raise the cap (saved in Settings; the queue resumes once it lets the request
 * through) or run anyway past it (for that batch, that day or that gateway's day).
 */
export function BudgetPause({ stop }: { stop: BudgetStop }) {
  const settings = useSettings().data;
  const runAnyway = useRunOverBudget();
  const raise = useRaiseCap();
  const [raising, setRaising] = useState(false);
  const spentNow = useSpentNow(stop);
  const needed = Math.max(spentNow, stop.spent + stop.inFlight) + stop.cost;
  const [text, setText] = useState(() => String(Math.ceil(Math.max(stop.cap * 2, needed))));
  const [saveError, setSaveError] = useState<string | null>(null);
  const fieldId = useId();
  const problem = newCapProblem(text, needed);
  const name = capName(stop);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (problem || !settings) return;
    const budget = budgetWithCap(settings.budget, stop, parseAmount(text)!);
    if (!budget) return;
    const result = await raise.attempt(budget);
    setSaveError(result.ok ? null : result.message);
  };
  return (
    <section className="pause-banner budget-pause" aria-label="Queue paused">
      <div className="pause-text">
        <strong>Paused: the next request would pass {name}.</strong> Nothing more is sent until you
        raise the cap or choose to run anyway.
        <dl className="budget-facts" aria-label="Budget">
          <div>
            <dt>Spent</dt>
            <dd>
              <SpendText units={spentNow} settings={settings} />
            </dd>
          </div>
          <div>
            <dt>Cap</dt>
            <dd>
              <SpendText units={stop.cap} settings={settings} />
            </dd>
          </div>
          <div>
            <dt>Next request</dt>
            <dd>
              about <SpendText units={stop.cost} settings={settings} />
            </dd>
          </div>
        </dl>
        {raising && (
          <form className="raise-cap" onSubmit={(e) => void submit(e)} aria-label="Raise the cap">
            <label htmlFor={fieldId}>New cap, in quota units</label>
            <input
              id={fieldId}
              inputMode="numeric"
              value={text}
              aria-invalid={problem ? true : undefined}
              aria-describedby={`${fieldId}-error`}
              onChange={(e) => setText(e.target.value)}
            />
            <button type="submit" disabled={Boolean(problem) || raise.disabled}>
              Save and resume
            </button>
            <button type="button" className="ghost" onClick={() => setRaising(false)}>
              Cancel
            </button>
            <p id={`${fieldId}-error`} className="field-error" role="alert">
              {problem ?? saveError}
            </p>
          </form>
        )}
      </div>
      <div className="pause-actions">
        {stop.scope !== 'run' && !raising && (
          <button type="button" className="ghost" onClick={() => setRaising(true)}>
            Raise the cap
          </button>
        )}
        <button
          type="button"
          className={raising ? 'ghost' : undefined}
          disabled={runAnyway.disabled}
          onClick={() => void runAnyway.run()}
          title={`Send past ${name}: it no longer stops the queue`}
        >
          Run anyway
        </button>
      </div>
    </section>
  );
}
