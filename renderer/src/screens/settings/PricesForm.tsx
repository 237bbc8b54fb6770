import { useId, useMemo, useState, type FormEvent } from 'react';
import type { ModelEntry } from '../../../../shared/gateway/catalogue.ts';
import type { Settings } from '../../data/types.ts';
import { Field, FormError } from './Field.tsx';
import { useSave } from './settings-actions.ts';

/** A price as typed: empty (the catalogue's), or a number ≥ 0. */
export function priceProblem(text: string): string | null {
  if (text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? null : 'A price is a number, 0 or more.';
}

/**
 * Prices per image (per video for video models) for the estimate, in the gateway's quota
 * units; a currency to show too.
 */
export function PricesForm({ settings, models }: { settings: Settings; models: ModelEntry[] }) {
  const save = useSave();
  const priced = models.filter((m) => m.kind !== 'text');
  const [prices, setPrices] = useState<Record<string, string>>(() =>
    Object.fromEntries(Object.entries(settings.prices).map(([id, p]) => [id, `${p.perImage}`])),
  );
  const [code, setCode] = useState(settings.currency?.code ?? '');
  const [perUnit, setPerUnit] = useState(settings.currency ? `${settings.currency.perUnit}` : '');
  const [saveError, setSaveError] = useState<string | null>(null);
  const headingId = useId();

  const problems = useMemo(
    () => Object.fromEntries(Object.entries(prices).map(([id, text]) => [id, priceProblem(text)])),
    [prices],
  );
  const codeError =
    code.trim() === '' && perUnit.trim() === ''
      ? null
      : !/^[A-Za-z$€£¥]{1,8}$/.test(code.trim())
        ? 'A currency code such as USD, or a symbol.'
        : null;
  const rate = Number(perUnit);
  const perUnitError =
    code.trim() === '' && perUnit.trim() === ''
      ? null
      : !(Number.isFinite(rate) && rate > 0)
        ? 'How much one quota unit is worth: a number above 0.'
        : null;
  const valid = !Object.values(problems).some(Boolean) && !codeError && !perUnitError;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    const next = Object.fromEntries(
      Object.entries(prices)
        .filter(([, text]) => text.trim() !== '')
        .map(([id, text]) => [id, { perImage: Number(text) }]),
    );
    const currency = code.trim() ? { code: code.trim(), perUnit: rate } : null;
    setSaveError(await save({ prices: next, currency }, 'Prices saved'));
  };

  return (
    <form className="panel settings-panel" aria-labelledby={headingId} onSubmit={submit}>
      <h3 id={headingId}>Prices for the estimate</h3>
      <p className="field-hint">
        What one image (or one video) costs on your gateway, in its quota units. Empty: the
        catalogue’s figure.
      </p>
      <div className="prices">
        {priced.map((model) => (
          <Field
            key={model.id}
            className="price-field"
            label={
              model.kind === 'video' ? (
                <>
                  <code>{model.id}</code> per video
                </>
              ) : (
                <code>{model.id}</code>
              )
            }
            error={problems[model.id]}
          >
            {(control) => (
              <input
                {...control}
                inputMode="decimal"
                value={prices[model.id] ?? ''}
                placeholder={
                  model.kind !== 'image' || model.pricePerImage === null
                    ? 'unknown'
                    : `${model.pricePerImage}`
                }
                onChange={(e) => setPrices((p) => ({ ...p, [model.id]: e.target.value }))}
              />
            )}
          </Field>
        ))}
      </div>
      <div className="form-grid currency">
        <Field label="Currency" hint="Optional: spend is shown in it too." error={codeError}>
          {(control) => (
            <input
              {...control}
              value={code}
              placeholder="USD"
              maxLength={8}
              onChange={(e) => setCode(e.target.value)}
            />
          )}
        </Field>
        <Field
          label="One quota unit is worth"
          hint={code.trim() ? `In ${code.trim()}, e.g. 0.000002.` : 'e.g. 0.000002'}
          error={perUnitError}
        >
          {(control) => (
            <input
              {...control}
              inputMode="decimal"
              value={perUnit}
              onChange={(e) => setPerUnit(e.target.value)}
            />
          )}
        </Field>
      </div>
      <FormError message={saveError} />
      <div className="form-actions">
        <button type="submit" disabled={!valid}>
          Save prices
        </button>
      </div>
    </form>
  );
}
