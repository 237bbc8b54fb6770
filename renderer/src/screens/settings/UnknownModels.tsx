import { useId, useState, type FormEvent } from 'react';
import type { InputOf } from '../../../../shared/api/types.ts';
import { plural } from '../../format.ts';
import { amountProblem, parseAmount } from '../../views/spend-fields.ts';
import { useAddModels } from './settings-actions.ts';

type ModelForm = InputOf<'models', 'addEntries'>['entries'][number];
type Kind = ModelForm['kind'];

interface Row {
  add: boolean;
  kind: Kind;
  /** Quota units an image, as typed (image models only); empty: unknown. */
  price: string;
}

/** What a row of the form adds: the kind and, for an image model, its price when given. */
export function entryOf(id: string, row: Row): ModelForm {
  if (row.kind !== 'image') return { kind: row.kind, id };
  const price = parseAmount(row.price);
  return price === null || price === undefined
    ? { kind: 'image', id }
    : { kind: 'image', id, pricePerImage: price };
}

/**
 * The models a connection test found that the catalogue lacks, offered to be added through a
 * small form: which ones, what kind each is, and an image model's price (no raw JSON).
 */
export function UnknownModels({ ids }: { ids: readonly string[] }) {
  const add = useAddModels();
  const headingId = useId();
  const [rows, setRows] = useState<Record<string, Row>>(() =>
    Object.fromEntries(ids.map((id) => [id, { add: true, kind: 'image', price: '' }])),
  );
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState(false);
  const chosen = ids.filter((id) => rows[id]!.add);
  const problems = chosen.some((id) => amountProblem(rows[id]!.price) !== null);
  const edit = (id: string, change: Partial<Row>) =>
    setRows({ ...rows, [id]: { ...rows[id]!, ...change } });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (chosen.length === 0 || problems) return;
    const result = await add.attempt(chosen.map((id) => entryOf(id, rows[id]!)));
    setError(result.ok ? null : result.message);
    setAdded(result.ok);
  };
  if (added) {
    return (
      <p className="field-hint" role="status">
        Added to the catalogue: they are in Compose now, and under Models & prices to refine.
      </p>
    );
  }
  return (
    <form
      className="unknown-models"
      aria-labelledby={headingId}
      onSubmit={(event) => void submit(event)}
    >
      <h4 id={headingId}>Models the gateway lists that Atelier does not know</h4>
      <p className="field-hint">
        Add them to use them in Compose. An image model takes OpenAI’s request body and any size
        until you refine it under Models & prices.
      </p>
      <table className="unknown-models-table">
        <thead>
          <tr>
            <th scope="col">Add</th>
            <th scope="col">Model</th>
            <th scope="col">Kind</th>
            <th scope="col">Quota units an image</th>
          </tr>
        </thead>
        <tbody>
          {ids.map((id) => {
            const row = rows[id]!;
            return (
              <tr key={id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Add ${id}`}
                    checked={row.add}
                    onChange={(e) => edit(id, { add: e.target.checked })}
                  />
                </td>
                <th scope="row">{id}</th>
                <td>
                  <select
                    aria-label={`Kind of ${id}`}
                    value={row.kind}
                    disabled={!row.add}
                    onChange={(e) => edit(id, { kind: e.target.value as Kind })}
                  >
                    <option value="image">Image</option>
                    <option value="video">Video</option>
                    <option value="text">Text (prompt help)</option>
                  </select>
                </td>
                <td>
                  {row.kind === 'image' && (
                    <input
                      aria-label={`Price of ${id}`}
                      inputMode="numeric"
                      placeholder="unknown"
                      value={row.price}
                      disabled={!row.add}
                      aria-invalid={amountProblem(row.price) ? true : undefined}
                      onChange={(e) => edit(id, { price: e.target.value })}
                    />
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" disabled={chosen.length === 0 || problems || add.disabled}>
          Add {plural(chosen.length, 'model')} to the catalogue
        </button>
      </div>
    </form>
  );
}
