import { useId, useState, type FormEvent } from 'react';
import { useAppInfo } from '../../data/app-queries.ts';
import type { Settings } from '../../data/types.ts';
import { Field, SwitchField, FormError } from './Field.tsx';
import { useSave } from './settings-actions.ts';

/** Concurrency as typed: a whole number from 1 to 1024. */
export function concurrencyProblem(text: string): string | null {
  const value = Number(text);
  return Number.isInteger(value) && value >= 1 && value <= 1024
    ? null
    : 'A whole number from 1 to 1024.';
}

/** The requests-per-minute cap as typed: empty for none, or a whole number above 0. */
export function rateProblem(text: string): string | null {
  if (text.trim() === '') return null;
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? null : 'A whole number above 0, or empty for none.';
}

/** How fast the queue goes (applies to the running queue) and what it says when done. */
export function QueueSection({ settings }: { settings: Settings }) {
  const save = useSave();
  const desktop = useAppInfo().data?.capabilities.notifications ?? false;
  const [concurrency, setConcurrency] = useState(`${settings.concurrency}`);
  const [rate, setRate] = useState(`${settings.requestsPerMinute ?? ''}`);
  const [saveError, setSaveError] = useState<string | null>(null);
  const headingId = useId();
  const concurrencyError = concurrencyProblem(concurrency);
  const rateError = rateProblem(rate);
  const unchanged =
    Number(concurrency) === settings.concurrency &&
    (rate.trim() === '' ? null : Number(rate)) === settings.requestsPerMinute;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (concurrencyError || rateError) return;
    setSaveError(
      await save(
        {
          concurrency: Number(concurrency),
          requestsPerMinute: rate.trim() === '' ? null : Number(rate),
        },
        'Limits applied',
      ),
    );
  };

  return (
    <div className="settings-stack">
      <form className="panel settings-panel" aria-labelledby={headingId} onSubmit={submit}>
        <h3 id={headingId}>Speed</h3>
        <div className="form-grid">
          <Field
            label="Requests at once"
            hint="How many requests are in flight together."
            error={concurrencyError}
          >
            {(control) => (
              <input
                {...control}
                inputMode="numeric"
                value={concurrency}
                onChange={(e) => setConcurrency(e.target.value)}
              />
            )}
          </Field>
          <Field
            label="Requests per minute, at most"
            hint="Empty: no cap beyond what the gateway says."
            error={rateError}
          >
            {(control) => (
              <input
                {...control}
                inputMode="numeric"
                value={rate}
                placeholder="no cap"
                onChange={(e) => setRate(e.target.value)}
              />
            )}
          </Field>
        </div>
        <FormError message={saveError} />
        <div className="form-actions">
          <button type="submit" disabled={unchanged || Boolean(concurrencyError || rateError)}>
            Apply limits
          </button>
          <span className="field-hint">They apply to the running queue at once.</span>
        </div>
      </form>
      <section className="panel settings-panel" aria-label="Notifications">
        <h3>Notifications</h3>
        <SwitchField
          label="Notify when a batch finishes"
          hint={
            desktop
              ? 'A desktop notification, when Atelier is not in front.'
              : 'In the browser a toast says it; the desktop app also notifies the system.'
          }
          checked={settings.notifications.batchFinished}
          onChange={(on) =>
            void save(
              { notifications: { batchFinished: on } },
              on ? 'Notifications on' : 'Notifications off',
            )
          }
        />
      </section>
    </div>
  );
}
