import type { ImageModelEntry, VideoModelEntry } from '../../../../shared/gateway/catalogue.ts';
import type { ComposeDraft, ComposeMode } from './draft.ts';
import type { FieldsShown, VideoFields } from './compose-plan.ts';
import { Chips } from './Chips.tsx';
import { parseList } from './matrix.ts';
import type { ModelParams } from './model-params.ts';
import { ModelParamsGroup } from './ModelParamsGroup.tsx';

interface Props {
  draft: ComposeDraft;
  edit(patch: Partial<ComposeDraft>): void;
  models: readonly ImageModelEntry[] | null;
  videoModels: readonly VideoModelEntry[] | null;
  fields: FieldsShown;
  video: VideoFields | null;
  /** The chosen image models' entries, and what each gets (in the same order). */
  entries: readonly ImageModelEntry[];
  perModel: readonly ModelParams[];
}

/**
 * What the jobs make (images or videos), and their matrix: models × sizes × seeds × n for
 * images (each model its own), models × sizes × durations for videos, multiplied or zipped;
 * and the fields every image job shares.
 */
export function MatrixPanel(props: Props) {
  const { draft, edit, videoModels } = props;
  const setMode = (mode: ComposeMode) => {
    if (mode === draft.mode) return;
    // a first switch to video starts with a video model, as Compose starts with an image model
    const first = videoModels?.[0]?.id;
    edit(
      mode === 'video' && draft.videoModels.length === 0 && first
        ? { mode, videoModels: [first] }
        : { mode },
    );
  };
  return (
    <section className="panel compose-matrix" aria-labelledby="matrix-heading">
      <div className="compose-heading-row">
        <h2 id="matrix-heading">Models and parameters</h2>
        <div className="compose-segmented" role="radiogroup" aria-label="Make">
          {(
            [
              ['image', 'Images'],
              ['video', 'Videos'],
            ] as const
          ).map(([mode, label]) => (
            <label key={mode}>
              <input
                type="radio"
                name="compose-mode"
                value={mode}
                checked={draft.mode === mode}
                onChange={() => setMode(mode)}
              />
              <span>{label}</span>
            </label>
          ))}
        </div>
      </div>
      {draft.mode === 'video' && props.video ? (
        <VideoMatrix {...props} video={props.video} />
      ) : (
        <ImageMatrix {...props} />
      )}
    </section>
  );
}

/** Toggles one item of a comma-separated list typed in a field. */
function toggled(text: string, item: string): string {
  const items = parseList(text);
  return (items.includes(item) ? items.filter((s) => s !== item) : [...items, item]).join(', ');
}

/** The models to choose from, each a checkbox. */
function ModelChecks({
  legend,
  models,
  chosen,
  onChange,
  none = 'No model is known.',
}: {
  legend: string;
  models: readonly { id: string }[] | null;
  chosen: readonly string[];
  onChange(chosen: string[]): void;
  none?: string;
}) {
  const toggle = (id: string) =>
    onChange(chosen.includes(id) ? chosen.filter((m) => m !== id) : [...chosen, id]);
  return (
    <fieldset className="compose-models">
      <legend>{legend}</legend>
      {models === null ? (
        <p className="muted">Loading the models…</p>
      ) : models.length === 0 ? (
        <p className="muted">{none}</p>
      ) : (
        models.map((m) => (
          <label key={m.id} className="compose-chip-check">
            <input type="checkbox" checked={chosen.includes(m.id)} onChange={() => toggle(m.id)} />
            <span>{m.id}</span>
          </label>
        ))
      )}
    </fieldset>
  );
}

function CombineChoice({ draft, edit }: Pick<Props, 'draft' | 'edit'>) {
  return (
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
  );
}

/** Video models × their sizes × durations. */
function VideoMatrix({ draft, edit, videoModels, video }: Props & { video: VideoFields }) {
  return (
    <>
      <ModelChecks
        legend="Video models"
        models={videoModels}
        chosen={draft.videoModels}
        onChange={(videoModels) => edit({ videoModels })}
        none="No video model is known: add one under Settings › Models (kind video)."
      />
      <label className="compose-field">
        <span>Sizes</span>
        <input
          value={draft.videoSizes}
          placeholder="the model's default"
          aria-describedby="video-sizes-help"
          onChange={(e) => edit({ videoSizes: e.target.value })}
        />
      </label>
      <div id="video-sizes-help" className="compose-help muted">
        Comma-separated{video.sizeChoices.length > 0 ? '; or pick:' : '.'}
      </div>
      <Chips
        label="Size choices"
        choices={video.sizeChoices}
        chosen={parseList(draft.videoSizes)}
        onToggle={(size) => edit({ videoSizes: toggled(draft.videoSizes, size) })}
      />
      <label className="compose-field">
        <span>Durations (seconds)</span>
        <input
          value={draft.seconds}
          placeholder="the model's default"
          inputMode="numeric"
          aria-describedby="video-seconds-help"
          onChange={(e) => edit({ seconds: e.target.value })}
        />
      </label>
      <div id="video-seconds-help" className="compose-help muted">
        Whole seconds, comma-separated{video.secondsChoices.length > 0 ? '; or pick:' : '.'}
      </div>
      <Chips
        label="Duration choices"
        choices={video.secondsChoices}
        chosen={parseList(draft.seconds)}
        show={(s) => `${s} s`}
        onToggle={(s) => edit({ seconds: toggled(draft.seconds, s) })}
      />
      <CombineChoice draft={draft} edit={edit} />
      <p className="compose-help muted">
        One video per job. Video models are often controlled-access: when the gateway does not list
        one for your key, the preview says so before anything runs.
      </p>
    </>
  );
}

/**
 * Image models, each with its own sizes × n (and quality, format), × seeds; and the fields
 * every job shares.
 */
function ImageMatrix({ draft, edit, models, fields, entries, perModel }: Props) {
  const only = (takers: string[]) =>
    draft.models.length > 1 && takers.length < draft.models.length
      ? ` (${takers.join(', ')} only)`
      : '';

  return (
    <>
      <ModelChecks
        legend="Models"
        models={models}
        chosen={draft.models}
        onChange={(models) => edit({ models })}
      />

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

      <CombineChoice draft={draft} edit={edit} />

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
    </>
  );
}
