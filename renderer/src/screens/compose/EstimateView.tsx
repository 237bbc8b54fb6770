import { formatMoney, formatUnits, type Estimate } from './estimate.ts';

/** The cost before running: the total, per model, and the models whose price is unknown. */
export function EstimateView({
  estimate,
  unit = 'image',
  gets = {},
}: {
  estimate: Estimate;
  /** What each job makes: the price is per image, or per video. */
  unit?: 'image' | 'video';
  /** What each model will get ("1024x1024 · n 2 · hd"), by model. */
  gets?: Readonly<Record<string, string>>;
}) {
  // no line priced: a total of "0 + unknown" would read as free
  const priced = estimate.lines.some((line) => line.perImage !== null);
  return (
    <section className="compose-estimate" aria-label="Estimate">
      <p className="compose-total" aria-label="Estimated total">
        <span className="muted">Estimate </span>
        {priced || estimate.lines.length === 0 ? (
          <>
            <strong>{formatUnits(estimate.total)}</strong> quota units
            {estimate.money && <> ≈ {formatMoney(estimate.money)}</>}
            {estimate.unknown.length > 0 && <> + unknown</>}
          </>
        ) : (
          <strong>unknown</strong>
        )}
      </p>
      <ul className="compose-estimate-lines" aria-label="Estimate per model">
        {estimate.lines.map((line) => (
          <li key={line.model}>
            <span className="compose-estimate-model">{line.model}</span>
            {gets[line.model] && <span className="compose-gets"> ({gets[line.model]})</span>}:{' '}
            {line.images.toLocaleString('en-US')} {unit}
            {line.images === 1 ? '' : 's'}{' '}
            {line.perImage === null ? (
              <span className="compose-unknown">× price unknown (set one in Settings)</span>
            ) : (
              <>
                × {formatUnits(line.perImage)}
                {line.from === 'catalogue' ? ' (list price)' : ''} = {formatUnits(line.cost ?? 0)}
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
