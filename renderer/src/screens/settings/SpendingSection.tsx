import { useId, useState, type FormEvent } from 'react';
import { formatMoney, formatUnits } from '../../../../shared/spend/money.ts';
import { useQueueState, useSpendSummary } from '../../data/app-queries.ts';
import { errorMessage } from '../../data/error-message.ts';
import type { Settings } from '../../data/types.ts';
import { amountProblem, amountText, parseAmount } from '../../views/spend-fields.ts';
import { spentText, type Spent } from '../../views/spend-text.ts';
import { Field, FormError } from './Field.tsx';
import { useSave } from './settings-actions.ts';

/** What was spent, when Atelier asks before spending, and the caps the queue keeps to. */
export function SpendingSection({ settings }: { settings: Settings }) {
  const { confirmSpend, budget } = settings;
  return (
    <div className="settings-stack">
      <SpentPanel settings={settings} />
      <ConfirmPanel key={`${confirmSpend.units}/${confirmSpend.requests}`} settings={settings} />
      <CapsPanel key={JSON.stringify(budget)} settings={settings} />
    </div>
  );
}

/** A field of quota units (or a count), as typed: empty for none. */
function AmountField({
  value,
  placeholder,
  onChange,
  ...field
}: {
  label: string;
  hint: string;
  error: string | null | undefined;
  value: string;
  placeholder: string;
  onChange: (text: string) => void;
}) {
  return (
    <Field {...field}>
      {(control) => (
        <input
          {...control}
          inputMode="numeric"
          value={value}
          placeholder={placeholder}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/** One row a day or a model: the images it made and what they cost. */
function SpentTable(props: {
  label: string;
  what: string;
  rows: Array<{ key: string; name: string; spent: Spent & { results: number } }>;
}) {
  return (
    <table className="spent-table" aria-label={props.label}>
      <thead>
        <tr>
          <th scope="col">{props.what}</th>
          <th scope="col">Images</th>
          <th scope="col">Spent</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.name}</th>
            <td>{row.spent.results.toLocaleString('en-US')}</td>
            <td>{spentText(row.spent) ?? 'nothing'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Units in words, and money where a currency is set. */
function unitsText(units: number, settings: Settings): string {
  const money = settings.currency
    ? ` (≈ ${formatMoney({ code: settings.currency.code, amount: units * settings.currency.perUnit })})`
    : '';
  return `${formatUnits(units)} quota units${money}`;
}

function SpentPanel({ settings }: { settings: Settings }) {
  const summary = useSpendSummary();
  // today follows the queue's events; the rest is read again as batches finish
  const liveToday = useQueueState().data?.progress.spentToday;
  const headingId = useId();
  const data = summary.data;
  const today = liveToday ?? data?.today;
  const cap = data?.budget.today;
  return (
    <section className="panel settings-panel" aria-labelledby={headingId}>
      <h3 id={headingId}>Spent so far</h3>
      {summary.error && (
        <p className="field-error" role="alert">
          The spend could not be read: {errorMessage(summary.error)}
        </p>
      )}
      <dl className="spent-figures">
        <div>
          <dt>Today</dt>
          <dd>{today ? (spentText(today) ?? 'nothing yet') : '…'}</dd>
          {cap && cap.cap !== null && cap.left !== null && (
            <dd className="field-hint">
              {unitsText(cap.left, settings)} left of today’s cap of {formatUnits(cap.cap)}
            </dd>
          )}
        </div>
        <div>
          <dt>Last 30 days</dt>
          <dd>{data ? (spentText(data.period) ?? 'nothing') : '…'}</dd>
        </div>
      </dl>
      {data && data.days.length > 0 && (
        <div className="spent-tables">
          <SpentTable
            label="Spent by day"
            what="Day"
            rows={data.days.map((day) => ({
              key: day.day,
              name: day.day === data.today.day ? 'Today' : day.day,
              spent: day,
            }))}
          />
          <SpentTable
            label="Spent by model"
            what="Model"
            rows={data.models.map((model) => ({
              key: model.model,
              name: model.model,
              spent: model,
            }))}
          />
        </div>
      )}
      <p className="field-hint">
        From the prices under Models & prices and what came back: a request that returned fewer
        images costs what came back. With a currency set there, amounts are shown in it too.
      </p>
    </section>
  );
}

function ConfirmPanel({ settings }: { settings: Settings }) {
  const save = useSave();
  const headingId = useId();
  const [units, setUnits] = useState(amountText(settings.confirmSpend.units));
  const [requests, setRequests] = useState(amountText(settings.confirmSpend.requests));
  const [saveError, setSaveError] = useState<string | null>(null);
  const unitsError = amountProblem(units);
  const requestsError = amountProblem(requests, true);
  const unchanged =
    parseAmount(units) === settings.confirmSpend.units &&
    parseAmount(requests) === settings.confirmSpend.requests;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (unitsError || requestsError) return;
    setSaveError(
      await save(
        { confirmSpend: { units: parseAmount(units)!, requests: parseAmount(requests)! } },
        'Saved: when to ask before spending',
      ),
    );
  };
  return (
    <form
      className="panel settings-panel"
      aria-labelledby={headingId}
      onSubmit={(e) => void submit(e)}
    >
      <h3 id={headingId}>Ask before spending</h3>
      <p className="field-hint">
        A batch above either amount starts only once you confirm what it will spend.
      </p>
      <div className="form-grid">
        <AmountField
          label="More than, in quota units"
          hint={
            parseAmount(units)
              ? `About ${unitsText(parseAmount(units)!, settings)}. Empty: never asked for units.`
              : 'Empty: never asked for units.'
          }
          error={unitsError}
          value={units}
          placeholder="never"
          onChange={setUnits}
        />
        <AmountField
          label="More than, in requests"
          hint="Empty: never asked for a count."
          error={requestsError}
          value={requests}
          placeholder="never"
          onChange={setRequests}
        />
      </div>
      <FormError message={saveError} />
      <div className="form-actions">
        <button type="submit" disabled={unchanged || Boolean(unitsError || requestsError)}>
          Save
        </button>
      </div>
    </form>
  );
}

/** Each gateway a cap may be set for: the one in use, the simulator and every profile. */
function gatewaysOf(settings: Settings, current: string | undefined): string[] {
  const names = ['demo', ...settings.profiles.map((p) => p.name)];
  if (current && !names.includes(current)) names.unshift(current);
  for (const name of Object.keys(settings.budget.perGatewayDay)) {
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

function CapsPanel({ settings }: { settings: Settings }) {
  const save = useSave();
  const headingId = useId();
  const { budget } = settings;
  const gateways = gatewaysOf(settings, useSpendSummary().data?.budget.gateway || undefined);
  const [perBatch, setPerBatch] = useState(amountText(budget.perBatch));
  const [perDay, setPerDay] = useState(amountText(budget.perDay));
  const [perGateway, setPerGateway] = useState<Record<string, string>>(() =>
    Object.fromEntries(gateways.map((g) => [g, amountText(budget.perGatewayDay[g])])),
  );
  const [saveError, setSaveError] = useState<string | null>(null);
  const errors = [
    amountProblem(perBatch),
    amountProblem(perDay),
    ...gateways.map((g) => amountProblem(perGateway[g] ?? '')),
  ];
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (errors.some(Boolean)) return;
    const perGatewayDay: Record<string, number> = {};
    for (const gateway of gateways) {
      const cap = parseAmount(perGateway[gateway] ?? '');
      if (cap !== null && cap !== undefined) perGatewayDay[gateway] = cap;
    }
    setSaveError(
      await save(
        {
          budget: { perBatch: parseAmount(perBatch)!, perDay: parseAmount(perDay)!, perGatewayDay },
        },
        'Spending caps saved',
      ),
    );
  };
  const hint = (text: string) => {
    const value = parseAmount(text);
    return value ? `About ${unitsText(value, settings)}. Empty: no cap.` : 'Empty: no cap.';
  };
  return (
    <form
      className="panel settings-panel"
      aria-labelledby={headingId}
      onSubmit={(e) => void submit(e)}
    >
      <h3 id={headingId}>Spending caps</h3>
      <p className="field-hint">
        The queue pauses before the request that would pass a cap, and says so; you raise the cap or
        run anyway. Counted in quota units, with what may have been charged.
      </p>
      <div className="form-grid">
        <AmountField
          label="Per batch"
          hint={hint(perBatch)}
          error={errors[0]}
          value={perBatch}
          placeholder="no cap"
          onChange={setPerBatch}
        />
        <AmountField
          label="Per day, every gateway"
          hint={hint(perDay)}
          error={errors[1]}
          value={perDay}
          placeholder="no cap"
          onChange={setPerDay}
        />
        {gateways.map((gateway, i) => (
          <AmountField
            key={gateway}
            label={`Per day on ${gateway === 'demo' ? 'the demo simulator' : `“${gateway}”`}`}
            hint={hint(perGateway[gateway] ?? '')}
            error={errors[i + 2]}
            value={perGateway[gateway] ?? ''}
            placeholder="no cap"
            onChange={(text) => setPerGateway({ ...perGateway, [gateway]: text })}
          />
        ))}
      </div>
      <FormError message={saveError} />
      <div className="form-actions">
        <button type="submit" disabled={errors.some(Boolean)}>
          Save caps
        </button>
      </div>
    </form>
  );
}
