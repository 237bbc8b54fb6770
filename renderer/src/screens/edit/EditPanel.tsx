import { useId, useRef } from 'react';
import type { ImageModelEntry } from '../../../../shared/gateway/catalogue.ts';
import { formatWhole, plural } from '../../format.ts';
import { groupIssues } from './group-issues.ts';
import { visibilityOf } from '../compose/params.ts';
import { EstimateView } from '../compose/EstimateView.tsx';
import type { Estimate } from '../compose/estimate.ts';
import { useImage } from '../gallery/gallery-queries.ts';
import { TileThumbnail } from '../gallery/TileThumbnail.tsx';
import { takesMask, type CheckState, type EditCheck, type jobsOf } from './edit-form.ts';
import type { EditForm } from './edit-state.ts';

/** Pictures shown in the strip; past it, a count. */
const STRIP = 12;

export interface MaskSummary {
  /** Share of the picture that may change; null while the newest strokes are encoded. */
  share: number | null;
  /** Whether there is a picture to paint over. */
  paintable: boolean;
  /** The picture's natural size, which the mask has. */
  size: { width: number; height: number } | null;
}

/** The edit's side: pictures, prompt, model and its settings, the mask, estimate, checks, Run. */
export function EditPanel({
  ids,
  form,
  setForm,
  models,
  model,
  mask,
  onLoadMask,
  onSaveMask,
  jobs,
  check,
  estimate,
  blockers,
  onRun,
  running,
}: {
  ids: readonly number[];
  form: EditForm;
  setForm(patch: Partial<EditForm>): void;
  models: readonly ImageModelEntry[] | null;
  model: ImageModelEntry | null;
  mask: MaskSummary;
  onLoadMask(file: File): void;
  onSaveMask(): void;
  jobs: ReturnType<typeof jobsOf>;
  check: CheckState;
  estimate: Estimate | null;
  blockers: readonly string[];
  onRun(position: 'back' | 'front'): void;
  running: boolean;
}) {
  const many = ids.length > 1;
  const promptHelp = useId();
  const blockersId = useId();
  const issues = check.status === 'done' ? check.check : null;
  return (
    <aside className="ed-panel" aria-label="Edit settings">
      <div className="ed-scroll">
        {many && <PictureStrip ids={ids} issues={issues} />}
        <label className="ed-field">
          <span>{many ? 'Prompt' : 'Prompts'}</span>
          <textarea
            value={form.prompts}
            rows={many ? 3 : 4}
            placeholder={
              many ? 'What should change in every picture' : 'What should change, one per line'
            }
            aria-describedby={promptHelp}
            onChange={(event) => setForm({ prompts: event.target.value })}
          />
        </label>
        <p id={promptHelp} className="ed-help muted">
          {many
            ? `One prompt for the ${ids.length} pictures: an edit job each.`
            : 'Each line is an edit job of its own.'}
        </p>
        <ModelFields form={form} setForm={setForm} models={models} model={model} />
        <MaskSection
          mask={mask}
          model={model}
          many={many}
          form={form}
          setForm={setForm}
          onLoadMask={onLoadMask}
          onSaveMask={onSaveMask}
        />
      </div>
      <div className="ed-run">
        {/* the cost beside Run, never scrolled away */}
        {estimate ? (
          <EstimateView estimate={estimate} />
        ) : (
          <p className="ed-estimate-none muted">
            {jobs.ok ? 'No estimate yet.' : 'The estimate follows the prompt.'}
          </p>
        )}
        <Checks check={check} jobs={jobs} />
        <ul id={blockersId} className="ed-blockers" aria-label="Why Run is disabled">
          {blockers.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
        <div className="ed-run-buttons">
          <button
            type="button"
            className="ghost"
            disabled={blockers.length > 0 || running}
            aria-describedby={blockersId}
            title="Run before everything queued"
            onClick={() => onRun('front')}
          >
            Run at the front
          </button>
          <button
            type="button"
            disabled={blockers.length > 0 || running}
            aria-describedby={blockersId}
            title="Ctrl/⌘ Enter"
            onClick={() => onRun('back')}
          >
            {jobs.ok ? `Run ${plural(jobs.jobs, 'edit')}` : 'Run'}
          </button>
        </div>
      </div>
    </aside>
  );
}

/** The model (only those that edit) and what it takes: n, size, quality, format. */
function ModelFields({
  form,
  setForm,
  models,
  model,
}: {
  form: EditForm;
  setForm(patch: Partial<EditForm>): void;
  models: readonly ImageModelEntry[] | null;
  model: ImageModelEntry | null;
}) {
  const shown = model ? visibilityOf(model) : null;
  return (
    <div className="ed-grid">
      <label className="ed-field ed-wide">
        <span>Model</span>
        <select
          value={model?.id ?? ''}
          disabled={!models || models.length === 0}
          onChange={(event) => setForm({ model: event.target.value })}
        >
          {!models && <option value="">Loading…</option>}
          {models?.map((m) => (
            <option key={m.id} value={m.id}>
              {m.id}
              {takesMask(m) ? '' : ' (no mask)'}
            </option>
          ))}
        </select>
      </label>
      {shown && (
        <label className="ed-field">
          <span>
            Images each{' '}
            {shown.n.min === shown.n.max ? `(${shown.n.max})` : `(${shown.n.min}–${shown.n.max})`}
          </span>
          <input
            type="number"
            min={shown.n.min}
            max={shown.n.max}
            value={form.n}
            onChange={(event) =>
              setForm({ n: Math.max(1, Math.round(Number(event.target.value)) || 1) })
            }
          />
        </label>
      )}
      {shown && shown.size.kind === 'list' && (
        <label className="ed-field">
          <span>Size</span>
          <select value={form.size} onChange={(event) => setForm({ size: event.target.value })}>
            <option value="">The model’s own</option>
            {shown.size.sizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
      )}
      {shown && shown.size.kind === 'any' && (
        <label className="ed-field">
          <span>Size</span>
          <input
            value={form.size}
            placeholder="the picture’s own"
            onChange={(event) => setForm({ size: event.target.value })}
          />
        </label>
      )}
      {shown && shown.quality && (
        <label className="ed-field">
          <span>Quality</span>
          {shown.quality === 'any' ? (
            <input
              value={form.quality}
              placeholder="the model’s own"
              onChange={(event) => setForm({ quality: event.target.value })}
            />
          ) : (
            <select
              value={form.quality}
              onChange={(event) => setForm({ quality: event.target.value })}
            >
              <option value="">The model’s own</option>
              {shown.quality.map((q) => (
                <option key={q} value={q}>
                  {q}
                </option>
              ))}
            </select>
          )}
        </label>
      )}
      {shown && shown.outputFormats.length > 0 && (
        <label className="ed-field">
          <span>Format</span>
          <select
            value={form.outputFormat}
            onChange={(event) => setForm({ outputFormat: event.target.value })}
          >
            <option value="">The model’s own</option>
            {shown.outputFormats.map((f) => (
              <option key={f} value={f}>
                {f.toUpperCase()}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}

/** What the mask does, keep-outside, and a mask's file: loaded from one, saved to one. */
function MaskSection({
  mask,
  model,
  many,
  form,
  setForm,
  onLoadMask,
  onSaveMask,
}: {
  mask: MaskSummary;
  model: ImageModelEntry | null;
  many: boolean;
  form: EditForm;
  setForm(patch: Partial<EditForm>): void;
  onLoadMask(file: File): void;
  onSaveMask(): void;
}) {
  const fileRef = useRef<HTMLInputElement>(null);
  const painted = mask.share !== null && mask.share > 0;
  const status = !mask.paintable
    ? 'No picture to paint a mask over.'
    : mask.share === null
      ? 'Preparing the mask…'
      : painted
        ? `${percent(mask.share)} of the picture may change: the painted part.`
        : 'No mask: the whole picture may change. Paint over what should change.';
  return (
    <section className="ed-section" aria-labelledby="ed-mask-heading">
      <div className="ed-heading">
        <h3 id="ed-mask-heading">Mask</h3>
        <span className="ed-mask-files">
          <button
            type="button"
            className="ghost small"
            disabled={!mask.paintable}
            onClick={() => fileRef.current?.click()}
          >
            Load…
          </button>
          <button
            type="button"
            className="ghost small"
            disabled={!mask.paintable || !painted}
            onClick={onSaveMask}
          >
            Save
          </button>
        </span>
        <input
          ref={fileRef}
          type="file"
          accept="image/png,image/webp,image/gif,image/avif,image/jpeg"
          aria-label="Mask file"
          hidden
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = ''; // the same file may be loaded again after changes
            if (file) onLoadMask(file);
          }}
        />
      </div>
      <p className="ed-mask-status" role="status">
        {status}
      </p>
      {mask.size && (
        <p className="ed-help muted">
          Painted at the picture’s own size, {mask.size.width} × {mask.size.height}.
        </p>
      )}
      {painted && model && !takesMask(model) && (
        <p className="ed-note">
          {model.id} takes no mask: clear it, or choose a model that takes one.
        </p>
      )}
      {many && painted && (
        <p className="ed-help muted">
          Painted over the first picture; scaled to the others (a picture of another shape gets it
          stretched, with a warning).
        </p>
      )}
      <label className="ed-check">
        <input
          type="checkbox"
          checked={form.keepOutsideMask}
          disabled={!painted}
          onChange={(event) => setForm({ keepOutsideMask: event.target.checked })}
        />
        <span>
          Keep the picture outside the mask
          <span className="ed-help muted">
            The result is pasted back over the original through a slightly soft edge, so nothing
            outside the mask changes.
          </span>
        </span>
      </label>
    </section>
  );
}

/** Up to a dozen of the pictures, each marked when the service names it in a problem. */
function PictureStrip({ ids, issues }: { ids: readonly number[]; issues: EditCheck | null }) {
  const named = (id: number, list: EditCheck['errors'] | undefined) =>
    list?.filter((issue) => issue.imageId === id) ?? [];
  return (
    <section className="ed-section" aria-label="Pictures">
      <h3 className="ed-strip-heading">{plural(ids.length, 'picture')}</h3>
      <ul className="ed-strip">
        {ids.slice(0, STRIP).map((id, i) => {
          const errors = named(id, issues?.errors);
          const warnings = named(id, issues?.warnings);
          return (
            <PictureChip
              key={id}
              id={id}
              first={i === 0}
              state={errors.length > 0 ? 'error' : warnings.length > 0 ? 'warning' : 'ok'}
              note={[...errors, ...warnings].map((issue) => issue.message).join(' ')}
            />
          );
        })}
        {ids.length > STRIP && (
          <li className="ed-strip-more muted">+{formatWhole(ids.length - STRIP)}</li>
        )}
      </ul>
    </section>
  );
}

function PictureChip({
  id,
  first,
  state,
  note,
}: {
  id: number;
  first: boolean;
  state: 'ok' | 'warning' | 'error';
  note: string;
}) {
  const image = useImage(id, true).data ?? null;
  const label = `Image ${id}${first ? ' (the mask is painted over it)' : ''}${note ? `: ${note}` : ''}`;
  return (
    <li className={`ed-chip ed-chip-${state}${first ? ' ed-chip-first' : ''}`} title={label}>
      <span className="visually-hidden">{label}</span>
      {image?.thumbRelPath ? (
        <TileThumbnail relPath={image.thumbRelPath} owner={image} />
      ) : (
        <span className="ed-chip-blank" aria-hidden="true" />
      )}
    </li>
  );
}

/** Every problem and warning the service found, each naming its row. */
function Checks({ check, jobs }: { check: CheckState; jobs: ReturnType<typeof jobsOf> }) {
  if (!jobs.ok) return null;
  if (check.status === 'failed') {
    return (
      <p className="ed-problem" role="alert">
        The service could not check the edit: {check.message}
      </p>
    );
  }
  if (check.status !== 'done') {
    return (
      <p className="ed-checking muted" role="status">
        Checking…
      </p>
    );
  }
  const { errors, warnings, bad, jobs: count, images } = check.check;
  const warned = groupIssues(warnings);
  return (
    <section className="ed-section ed-checks" aria-label="Checks">
      {bad === 0 ? (
        // with warnings, not the green of all clear: they are worth reading before running
        <p className={warned.length > 0 ? 'ed-ok ed-ok-warned' : 'ed-ok'} role="status">
          Ready: {plural(count, 'job')}, {plural(images, 'image')}
          {warned.length > 0
            ? `; read the ${warned.length === 1 ? 'warning' : 'warnings'} below first.`
            : '.'}
        </p>
      ) : (
        <ul className="ed-issues" aria-label="Problems">
          {errors.map((issue, i) => (
            <li key={i} className="ed-problem">
              <strong>{capitalised(issue.label)}</strong>: {issue.message}
            </li>
          ))}
          {bad > errors.length && <li>…and {formatWhole(bad - errors.length)} more</li>}
        </ul>
      )}
      {warned.length > 0 && (
        <ul className="ed-issues" aria-label="Warnings">
          {warned.map((group) => (
            <li key={group.message} className="ed-warning">
              {group.labels.length === 1 ? (
                <>
                  <strong>{capitalised(group.labels[0]!)}</strong>: {group.message}
                </>
              ) : (
                <>
                  <strong>
                    {group.pictures
                      ? plural(group.labels.length, 'picture')
                      : capitalised(group.labels.join(', '))}
                  </strong>
                  : {group.message}
                  {group.pictures && (
                    <span
                      className="ed-issue-rows"
                      title={group.labels.map(capitalised).join('\n')}
                    >
                      {group.labels.map(capitalised).join(' · ')}
                    </span>
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function percent(share: number): string {
  if (share >= 0.995 && share < 1) return '99%';
  if (share > 0 && share < 0.01) return 'under 1%';
  return `${Math.round(share * 100)}%`;
}
