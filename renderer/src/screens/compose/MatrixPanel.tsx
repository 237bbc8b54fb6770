import type { ImageModelEntry } from '../../../../shared/gateway/catalogue.ts';
import type { ComposeDraft } from './draft.ts';
import type { FieldsShown } from './compose-plan.ts';
import type { ModelParams } from './model-params.ts';
import { ModelParamsGroup } from './ModelParamsGroup.tsx';

interface Props {
  draft: ComposeDraft;
  edit(patch: Partial<ComposeDraft>): void;
  models: readonly ImageModelEntry[] | null;
  fields: FieldsShown;
  /** The chosen models' entries, and what each gets (in the same order). */
  entries: readonly ImageModelEntry[];
  perModel: readonly ModelParams[];
}

/** Models, each with its own sizes × n (and quality, format), × seeds, multiplied or zipped. */
export function MatrixPanel({ draft, edit, models, fields, entries, perModel }: Props) {
  const toggleModel = (id: string) =>
    edit({
      models: draft.models.includes(id)
        ? draft.models.filter((m) => m !== id)
        : [...draft.models, id],
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

      {entries.map((entry, i) => (
        <ModelParamsGroup
          key={entry.id}
          entry={entry}
          params={perModel[i]!}
          own={draft.perModel[entry.id] ?? {}}
          edit={(patch) =>
            edit({
              perModel: {
                ...draft.perModel,
                [entry.id]: { ...draft.perModel[entry.id], ...patch },
              },
            })
          }
          titled={entries.length > 1}
        />
      ))}

      {(fields.seed || draft.seeds.trim() !== '') && (
        <div className="compose-row">
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
        </div>
      )}

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
