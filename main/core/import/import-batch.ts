import { basename, extname } from 'node:path';
import type { Catalogue } from '../../../shared/gateway/catalogue.ts';
import { planGeneration } from '../gateway/build/plan.ts';
import type { JobParams } from '../engine/job-request.ts';
import { imageRequestFor } from '../engine/job-request.ts';
import type { Batch } from '../store/rows.ts';
import type { NewJob } from '../store/jobRepository.ts';
import type { Store } from '../store/store.ts';
import { PromptFileError, readPromptFile } from './prompt-file.ts';
import type { PromptRow, RowError } from './prompt-row.ts';

/** Values for the columns a row leaves out (the CLI's --model, --size, --n, --seed…). */
export interface RowDefaults {
  model?: string;
  size?: string;
  n?: number;
  seed?: number;
  quality?: string;
  output_format?: 'png' | 'jpeg' | 'webp';
  response_format?: 'url' | 'b64_json';
}

export interface ImportOptions {
  catalogue: Catalogue;
  defaults?: RowDefaults;
  /** The batch's name; by default the file's name without its extension. */
  name?: string;
  paused?: boolean;
}

/** Errors kept for the report; past this only the count grows. */
const MAX_REPORTED_ERRORS = 1_000;

/**
 * Imports a prompt file as one batch. Every row is checked first (types, then what the
 * model accepts, by the same validation the gateway client applies before sending), so a
 * bad row is reported with its line number and nothing is imported; then the rows are read
 * again and inserted in one transaction, never holding the file in memory.
 */
export async function importPromptFile(
  store: Store,
  path: string,
  options: ImportOptions,
): Promise<Batch> {
  const errors: RowError[] = [];
  let bad = 0;
  let rows = 0;
  for await (const record of readPromptFile(path)) {
    const problem = 'error' in record ? record.error : checkRow(record.row, options);
    if (problem) {
      bad++;
      if (errors.length < MAX_REPORTED_ERRORS) errors.push(problem);
    } else rows++;
  }
  if (bad > 0) throw new PromptFileError(path, errors, bad);
  if (rows === 0)
    throw new PromptFileError(path, [{ line: 0, message: 'the file holds no prompt' }], 1);

  const name = options.name ?? basename(path, extname(path));
  return store.batches.createStreaming(
    {
      name,
      source: basename(path),
      paused: options.paused ?? false,
      settings: { defaults: options.defaults ?? {} },
    },
    jobsOf(path, options),
    Date.now(),
  );
}

async function* jobsOf(path: string, options: ImportOptions): AsyncGenerator<NewJob> {
  for await (const record of readPromptFile(path)) {
    // The file changed between the two passes: refuse rather than import something unchecked.
    if ('error' in record) throw new PromptFileError(path, [record.error], 1);
    yield toNewJob(record.row, options);
  }
}

export function toNewJob(row: PromptRow, options: ImportOptions): NewJob {
  const d = options.defaults ?? {};
  const model = row.model ?? d.model ?? '';
  const params: JobParams = {};
  const quality = row.quality ?? d.quality;
  const outputFormat = row.output_format ?? d.output_format;
  if (quality) params.quality = quality;
  if (outputFormat) params.output_format = outputFormat;
  if (row.negative_prompt) params.negative_prompt = row.negative_prompt;
  if (d.response_format) params.response_format = d.response_format;
  const extra = { ...row.extra };
  if (typeof extra.seconds === 'string' || typeof extra.seconds === 'number') {
    params.seconds = String(extra.seconds);
    delete extra.seconds;
  }
  if (Object.keys(extra).length > 0) params.extra = extra;
  return {
    prompt: row.prompt,
    model,
    kind: options.catalogue.lookup(model).kind === 'video' ? 'video' : 'image',
    name: row.name ?? null,
    size: row.size ?? d.size ?? null,
    n: row.n ?? d.n ?? 1,
    seed: row.seed ?? d.seed ?? null,
    params,
  };
}

/** What the gateway client would refuse for this row, as one message with its line. */
function checkRow(row: PromptRow, options: ImportOptions): RowError | null {
  const job = toNewJob(row, options);
  if (!job.model) {
    return { line: row.line, message: 'no model: add a "model" column or give --model' };
  }
  const entry = options.catalogue.lookup(job.model);
  if (entry.kind === 'text') {
    return {
      line: row.line,
      message: `${job.model} is a text model; choose an image or video model`,
    };
  }
  if (entry.kind === 'video') return null;
  const plan = planGeneration(
    imageRequestFor({
      model: job.model,
      prompt: job.prompt,
      n: job.n ?? 1,
      size: job.size ?? null,
      seed: job.seed ?? null,
      params: job.params ?? {},
    }),
    options.catalogue,
  );
  return plan.ok ? null : { line: row.line, message: plan.problems.join(' ') };
}
