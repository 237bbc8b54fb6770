import type { ImageModelEntry } from '../../../../shared/gateway/catalogue.ts';
import type { ComposeDraft } from './draft.ts';
import type { FieldsShown } from './compose-plan.ts';
import { parseList } from './matrix.ts';

interface Props {
  draft: ComposeDraft;
  edit(patch: Partial<ComposeDraft>): void;
  models: readonly ImageModelEntry[] | null;
  fields: FieldsShown;
}

/** Models × sizes × seeds × n, multiplied or zipped, and the fields every job shares. */
export function MatrixPanel({ draft, edit, models, fields }: Props) {
  const toggleModel = (id: string) =>
    edit({
      models: draft.models.includes(id)
        ? draft.models.filter((m) => m !== id)
        : [...draft.models, id],
    });
  const sizes = parseList(draft.sizes);
  const toggleSize = (size: string) =>
    edit({
      sizes: (sizes.includes(size) ? sizes.filter((s) => s !== size) : [...sizes, size]).join(', '),
    });
  const only = (takers: string[]) =>
    draft.models.length > 1 && takers.length < draft.models.length
      ? ` (${takers.join(', ')} only)`
      : '';

  return (
    <section className="panel compose-matrix" aria-labelledby="matrix-heading">
      <h2 id="matrix-heading">Models and parameters</h2>
      <fieldset className="compose-models">
        <legend>Models</legend>
        {models === null ? (
          <p className="muted">Loading the models…</p>
        ) : (
          models.map((m) => (
            <label key={m.id} className="compose-chip-check">
              <input
                type="checkbox"
                checked={draft.models.includes(m.id)}
                onChange={() => toggleModel(m.id)}
              />
              <span>{m.id}</span>
            </label>
          ))
        )}
      </fieldset>

      <label className="compose-field">
        <span>Sizes</span>
        <input
          value={draft.sizes}
          placeholder="the model's default"
          aria-describedby="sizes-help"
          onChange={(e) => edit({ sizes: e.target.value })}
        />
      </label>
      <div id="sizes-help" className="compose-help muted">
        {fields.sizeHint ? `Comma-separated; ${fields.sizeHint}.` : 'Comma-separated.'}
        {fields.sizeChoices.length > 0 && ' Or pick:'}
      </div>
      {fields.sizeChoices.length > 0 && (
        <div className="compose-chips" role="group" aria-label="Size choices">
          {fields.sizeChoices.map((size) => (
            <button
              key={size}
              type="button"
              className="compose-chip"
              aria-pressed={sizes.includes(size)}
              onClick={() => toggleSize(size)}
            >
              {size}
            </button>
          ))}
        </div>
      )}

      <div className="compose-row">
        {(fields.seed || draft.seeds.trim() !== '') && (
          <label className="compose-field">
            {/* kept while it holds seeds no chosen model takes, so they can be cleared */}
            <span>Seeds{fields.seed ? only(fields.seed) : ' (no chosen model takes one)'}</span>
            <input
              value={draft.seeds}
              placeholder="random"
              inputMode="numeric"
              onChange={(e) => edit({ seeds: e.target.value })}
            />
          </label>
        )}
        <label className="compose-field">
          <span>
            Images each{' '}
            {fields.n.min === fields.n.max
              ? `(n: ${fields.n.max} only)`
              : `(n, ${fields.n.min}–${fields.n.max})`}
          </span>
          <input
            value={draft.ns}
            placeholder="1"
            inputMode="numeric"
            onChange={(e) => edit({ ns: e.target.value })}
          />
        </label>
      </div>

      <div className="compose-segmented" role="radiogroup" aria-label="Combine the lists">
        {(
          [
            ['multiply', 'Every combination'],
            ['zip', 'Zip: prompt i with item i'],
          ] as const
        ).map(([mode, label]) => (
          <label key={mode}>
            <input
              type="radio"
              name="combine"
              value={mode}
              checked={draft.combine === mode}
              onChange={() => edit({ combine: mode })}
            />
            <span>{label}</span>
          </label>
        ))}
      </div>

      {fields.quality && (
        <label className="compose-field">
          <span>Quality{only(fields.quality.takers)}</span>
          {fields.quality.values === 'any' ? (
            <input value={draft.quality} onChange={(e) => edit({ quality: e.target.value })} />
          ) : (
            <select value={draft.quality} onChange={(e) => edit({ quality: e.target.value })}>
              <option value="">Model default</option>
              {fields.quality.values.map((q) => (
                <option key={q} value={q}>
                  {q}
                </option>
              ))}
            </select>
          )}
        </label>
      )}
      {fields.outputFormat && (
        <label className="compose-field">
          <span>Output format{only(fields.outputFormat.takers)}</span>
          <select
            value={draft.outputFormat}
            onChange={(e) => edit({ outputFormat: e.target.value })}
          >
            <option value="">Model default</option>
            {fields.outputFormat.values.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </label>
      )}
      {fields.negativePrompt && (
        <label className="compose-field">
          <span>Negative prompt{only(fields.negativePrompt)}</span>
          <input
            value={draft.negativePrompt}
            onChange={(e) => edit({ negativePrompt: e.target.value })}
          />
        </label>
      )}
      {fields.extra && (
        <label className="compose-field">
          <span>Extra fields{only(fields.extra)}</span>
          <textarea
            rows={2}
            value={draft.extra}
            placeholder="key=value, one per line"
            onChange={(e) => edit({ extra: e.target.value })}
          />
        </label>
      )}
    </section>
  );
}
