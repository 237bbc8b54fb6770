import type { InputOf, OutputOf } from '../../../../shared/api/types.ts';
import { editPairs, promptLines } from '../../../../shared/edits/edit-rows.ts';
import type { ImageModelEntry, ModelEntry } from '../../../../shared/gateway/catalogue.ts';
import { plural } from '../../format.ts';
import type { EditForm } from './edit-state.ts';

/** The form as the service reads it: which models edit, what is sent, why Run waits. Pure. */

export type EditInput = InputOf<'edits', 'check'>;
export type EditCheck = OutputOf<'edits', 'check'>;

/** The models that edit pictures, as the catalogue says (its `edit` protocol), in its order. */
export function editModels(entries: readonly ModelEntry[]): ImageModelEntry[] {
  return entries.filter((e): e is ImageModelEntry => e.kind === 'image' && e.edit !== 'none');
}

/**
 * The model the form uses: the person's last choice while it still edits, else the starting
 * model of Settings when it edits, else the catalogue's first that does.
 */
export function chosenModel(
  form: EditForm,
  models: readonly ImageModelEntry[],
  fromSettings: string | null,
): ImageModelEntry | null {
  const byId = (id: string | null) => (id ? models.find((m) => m.id === id) : undefined);
  return byId(form.model) ?? byId(fromSettings) ?? models[0] ?? null;
}

/** A model's own words about its mask: a Qwen JSON edit sends the picture alone. */
export function takesMask(entry: ImageModelEntry): boolean {
  return entry.edit === 'multipart';
}

/**
 * What `edits.check` and `edits.create` are asked: only what the model takes is sent (a
 * quality to a model without one would be refused), the mask only when something is painted.
 */
export function editInputOf(
  ids: readonly number[],
  form: EditForm,
  entry: ImageModelEntry,
  mask: string | null,
): EditInput {
  const input: EditInput = {
    images: [...ids],
    prompts: form.prompts,
    model: entry.id,
    n: form.n,
    keepOutsideMask: form.keepOutsideMask && mask !== null,
  };
  if (mask !== null) input.mask = { png: mask };
  if (form.size.trim()) input.size = form.size.trim();
  if (form.quality && (entry.quality === 'any' || entry.quality.includes(form.quality))) {
    input.quality = form.quality;
  }
  const format = entry.outputFormats.find((f) => f === form.outputFormat);
  if (format) input.output_format = format;
  return input;
}

/** The jobs the form makes (the service's own rule), or why it makes none. */
export function jobsOf(
  pictures: number,
  prompts: string,
): { ok: true; jobs: number } | { ok: false; message: string } {
  const shape = editPairs(pictures, promptLines(prompts).length);
  return shape.ok ? { ok: true, jobs: shape.pairs.length } : shape;
}

export type CheckState =
  | { status: 'idle' }
  | { status: 'checking' }
  | { status: 'done'; check: EditCheck }
  | { status: 'failed'; message: string };

/** Why Run waits, for the line beside it; empty when it may run. */
export function runBlockers(options: {
  jobs: ReturnType<typeof jobsOf>;
  model: ImageModelEntry | null;
  picture: 'loading' | 'ready' | 'none';
  mask: 'current' | 'preparing';
  check: CheckState;
  sending: boolean;
}): string[] {
  const { jobs, model, picture, mask, check, sending } = options;
  if (sending) return ['Queuing the edit…'];
  const reasons: string[] = [];
  if (!jobs.ok) reasons.push(jobs.message);
  if (!model) reasons.push('No model here edits pictures: add one in Settings › Models.');
  if (picture === 'loading') reasons.push('The picture is loading.');
  if (reasons.length > 0) return reasons;
  if (mask === 'preparing') return ['Preparing the mask…'];
  if (check.status === 'checking' || check.status === 'idle') return ['Checking the edit…'];
  if (check.status === 'failed') return [`The service could not check the edit: ${check.message}`];
  if (check.check.bad > 0) {
    return [`Fix ${plural(check.check.bad, 'problem')} first (listed above).`];
  }
  if (check.check.jobs === 0) return ['Nothing to edit.'];
  return [];
}
