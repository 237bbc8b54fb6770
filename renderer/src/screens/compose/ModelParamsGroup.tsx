import type { ImageModelEntry } from '../../../../shared/gateway/catalogue.ts';
import { defaultSize } from '../../../../shared/gateway/params.ts';
import { Chips } from './Chips.tsx';
import { parseList } from './matrix.ts';
import type { ModelParams, ModelParamsDraft } from './model-params.ts';
import { visibilityOf } from './params.ts';

interface Props {
  entry: ImageModelEntry;
  /** What it gets now (its own values, else the shared ones it takes). */
  params: ModelParams;
  /** What the person set for it, field by field. */
  own: ModelParamsDraft;
  edit(patch: ModelParamsDraft): void;
  /** Several models are chosen: the group says whose it is. */
  titled: boolean;
}

/**
 * One model's own parameters: its sizes (its own choices, never another model's), n in its
 * range, its quality and format values. Each field shows what the model gets; typing sets it
 * for this model alone.
 */
export function ModelParamsGroup({ entry, params, own, edit, titled }: Props) {
  const v = visibilityOf(entry, params.seeds.length > 0);
  const sizesText = own.sizes ?? params.sizes.join(', ');
  const sizes = parseList(sizesText);
  const choices = v.size.kind === 'list' ? v.size.sizes : v.size.named;
  const toggleSize = (size: string) =>
    edit({
      sizes: (sizes.includes(size) ? sizes.filter((s) => s !== size) : [...sizes, size]).join(', '),
    });
  const fallback = defaultSize(entry);
  const id = `params-${entry.id.replace(/[^\w-]/g, '_')}`;
  // one value allowed: nothing to choose (a value typed before stays editable, to be fixed)
  const onlyN = v.n.min === v.n.max && own.ns === undefined ? String(v.n.max) : null;
  return (
    <fieldset className="compose-model-params" aria-label={entry.id}>
      {titled && <legend>{entry.id}</legend>}
      <label className="compose-field">
        <span>Sizes</span>
        <input
          value={sizesText}
          placeholder={fallback ? `its default, ${fallback}` : "the model's default"}
          aria-describedby={`${id}-sizes`}
          onChange={(e) => edit({ sizes: e.target.value })}
        />
      </label>
      <div id={`${id}-sizes`} className="compose-help muted">
        {v.size.kind === 'any'
          ? `Comma-separated; any WxH with sides from ${v.size.minSide} to ${v.size.maxSide} px.`
          : 'Comma-separated.'}
        {choices.length > 0 && ' Or pick:'}
      </div>
      <Chips
        label={`Sizes of ${entry.id}`}
        choices={choices}
        chosen={sizes}
        onToggle={toggleSize}
      />
      <div className="compose-row">
        <label className="compose-field">
          <span>
            Images each{' '}
            {v.n.min === v.n.max ? `(n: ${v.n.max} only)` : `(n, ${v.n.min}–${v.n.max})`}
          </span>
          <input
            value={onlyN ?? own.ns ?? params.ns.join(', ')}
            placeholder="1"
            inputMode="numeric"
            readOnly={onlyN !== null}
            onChange={(e) => edit({ ns: e.target.value })}
          />
        </label>
        {v.quality !== null && (
          <label className="compose-field">
            <span>Quality</span>
            {v.quality === 'any' ? (
              <input
                value={own.quality ?? params.quality ?? ''}
                placeholder="model default"
                onChange={(e) => edit({ quality: e.target.value })}
              />
            ) : (
              <select
                value={own.quality ?? params.quality ?? ''}
                onChange={(e) => edit({ quality: e.target.value })}
              >
                <option value="">Model default</option>
                {v.quality.map((q) => (
                  <option key={q} value={q}>
                    {q}
                  </option>
                ))}
              </select>
            )}
          </label>
        )}
        {v.outputFormats.length > 0 && (
          <label className="compose-field">
            <span>Output format</span>
            <select
              value={own.outputFormat ?? params.outputFormat ?? ''}
              onChange={(e) => edit({ outputFormat: e.target.value })}
            >
              <option value="">Model default</option>
              {v.outputFormats.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {params.leftOut.length > 0 && (
        <p className="compose-help muted compose-left-out">
          Not sent to {entry.id}: {params.leftOut.join('; ')}.
        </p>
      )}
    </fieldset>
  );
}
