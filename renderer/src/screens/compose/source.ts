import type { InputOf } from '../../../../shared/api/types.ts';
import type { ImageModelEntry } from '../../../../shared/gateway/catalogue.ts';
import type { JobPlan, PlannedJob } from './matrix.ts';

export type BatchSource = InputOf<'batches', 'create'>['source'];
export type PromptRow = Extract<BatchSource, { kind: 'rows' }>['rows'][number];

/** The contract's cap on rows sent as data (MAX_ROWS); a longer plan goes as .jsonl text. */
export const MAX_ROWS = 10_000;
/** The most jobs the composer makes in one batch: past it, split the work. */
export const MAX_JOBS = 200_000;

/** What every job shares; each goes only to the models that take it. */
export interface SharedParams {
  quality?: string | undefined;
  outputFormat?: string | undefined;
  negativePrompt?: string | undefined;
  extra?: Readonly<Record<string, unknown>> | undefined;
}

/** One job as the service reads it: the planned job and the shared fields its model takes. */
export function rowOf(
  job: PlannedJob,
  shared: SharedParams,
  lookup: (model: string) => ImageModelEntry,
): PromptRow {
  const entry = lookup(job.model);
  const row: PromptRow = { prompt: job.prompt, model: job.model, n: job.n };
  if (job.size !== undefined) row.size = job.size;
  if (job.seed !== undefined) row.seed = job.seed;
  // quality and format: the model's own (model-params.ts chose them for it)
  if (job.quality) row.quality = job.quality;
  if (job.outputFormat) row.output_format = job.outputFormat as PromptRow['output_format'];
  if (shared.negativePrompt && entry.negativePrompt) row.negative_prompt = shared.negativePrompt;
  if (shared.extra && entry.extra && Object.keys(shared.extra).length > 0) {
    row.extra = { ...shared.extra };
  }
  return row;
}

/** One video job as the service reads it: the prompt, the model, its size and duration. */
export function videoRowOf(job: PlannedJob): PromptRow {
  const row: PromptRow = { prompt: job.prompt, model: job.model };
  if (job.size !== undefined) row.size = job.size;
  if (job.seconds !== undefined) row.seconds = job.seconds;
  return row;
}

/**
 * The plan as a batch source, each job made a row by `row`: rows up to MAX_ROWS, past it the
 * same rows as JSON Lines text built here (the service reads it as it reads a dropped .jsonl
 * file).
 */
export function sourceOf(plan: JobPlan, row: (job: PlannedJob) => PromptRow): BatchSource {
  const rows = Array.from({ length: plan.count }, (_, i) => row(plan.at(i)));
  if (rows.length <= MAX_ROWS) return { kind: 'rows', rows };
  const text = rows
    .map(({ extra, ...columns }) => JSON.stringify({ ...extra, ...columns }))
    .join('\n');
  return { kind: 'text', fileName: 'composed.jsonl', text };
}
