import { formatMoney, formatUnits, type Estimate } from './estimate.ts';

/** The cost before running: per model, the total, and the models whose price is unknown. */
export function EstimateView({ estimate }: { estimate: Estimate }) {
  return (
    <section className="compose-estimate" aria-labelledby="estimate-heading">
      <h3 id="estimate-heading">Estimate</h3>
      <table>
        <tbody>
          {estimate.lines.map((line) => (
            <tr key={line.model}>
              <th scope="row">{line.model}</th>
              <td>
                {line.images.toLocaleString('en-US')} image{line.images === 1 ? '' : 's'}
              </td>
              <td>
                {line.perImage === null ? (
                  <span className="muted">price unknown</span>
                ) : (
                  <>
                    × {formatUnits(line.perImage)}
                    {line.from === 'catalogue' && (
                      <span
                        className="muted"
                        title="The catalogue's list price: set yours in Settings"
                      >
                        {' '}
                        (list)
                      </span>
                    )}
                  </>
                )}
              </td>
              <td>{line.cost === null ? '—' : formatUnits(line.cost)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="compose-total" aria-label="Estimated total">
        <strong>{formatUnits(estimate.total)}</strong> quota units
        {estimate.money && <> ≈ {formatMoney(estimate.money)}</>}
        {estimate.unknown.length > 0 && (
          <span className="muted">
            {' '}
            + {estimate.unknown.join(', ')} (no price: set one in Settings)
          </span>
        )}
      </p>
    </section>
  );
}
