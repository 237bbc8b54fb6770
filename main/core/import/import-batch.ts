import { basename, extname } from 'node:path';
import type { Catalogue } from '../../../shared/gateway/catalogue.ts';
import { planGeneration } from '../gateway/build/plan.ts';
import type { JobParams } from '../engine/job-request.ts';
import { imageRequestFor } from '../engine/job-request.ts';
import type { Batch } from '../store/rows.ts';
import type { NewJob } from '../store/job-repository.ts';
import type { Store } from '../store/store.ts';
import { PromptFileError, readPromptFile } from './prompt-file.ts';
import type { PromptRow, RowError } from './prompt-row.ts';

/** Values for the columns a row leaves out (the CLI's --model, --size, --n, --seed…). */
export type RowDefaults = Partial<
  Pick<PromptRow, 'model' | 'size' | 'n' | 'seed' | 'quality' | 'output_format'>
> & { response_format?: 'url' | 'b64_json' };

export interface ImportOptions {
  catalogue: Catalogue;
  defaults?: RowDefaults;
  /** The batch's name; by default the file's name without its extension. */
  name?: string;
  paused?: boolean;
  /** Rows kept from the first pass for the insert (default 200,000); past it, read again. */
  keptRows?: number;
  /** The longest prompt accepted, in characters (default 32,000); a longer one is a bad row. */
  maxPromptChars?: number;
}

/** The longest prompt accepted by default: far above any model's, far below a runaway paste. */
export const DEFAULT_MAX_PROMPT_CHARS = 32_000;

/** Errors kept for the report; past this only the count grows. */
const MAX_REPORTED_ERRORS = 1_000;

/**
 * Up to this many rows, the checked rows are kept from the first pass and inserted from
 * memory (a few tens of MB); a longer file is read a second time instead, so memory stays
 * bounded whatever its length.
 */
const KEPT_ROWS = 200_000;

/**
 * Imports a prompt file as one batch. Every row is checked first (types, then what the
 * model accepts, by the same validation the gateway client applies before sending), so a
 * bad row is reported with its line number and nothing is imported; then the rows are
 * inserted in one transaction (read again for a long file, never holding it in memory).
 */
export async function importPromptFile(
  store: Store,
  path: string,
  options: ImportOptions,
): Promise<Batch> {
  const errors: RowError[] = [];
  let bad = 0;
  let rows = 0;
  const checked: CheckCache = new Map();
  let kept: NewJob[] | null = [];
  const maxPromptChars = options.maxPromptChars ?? DEFAULT_MAX_PROMPT_CHARS;
  for await (const record of readPromptFile(path)) {
    const job = 'row' in record ? toNewJob(record.row, options) : null;
    const problem =
      'error' in record
        ? record.error
        : (promptTooLong(record.row, maxPromptChars) ??
          checkJob(job as NewJob, record.row.line, options, checked));
    if (problem || !job) {
      bad++;
      kept = null;
      if (problem && errors.length < MAX_REPORTED_ERRORS) errors.push(problem);
      continue;
    }
    rows++;
    if (kept && rows > (options.keptRows ?? KEPT_ROWS)) kept = null;
    else kept?.push(job);
  }
  if (bad > 0) throw new PromptFileError(path, errors, bad);
  if (rows === 0)
    throw new PromptFileError(path, [{ line: 0, message: 'the file holds no prompt' }], 1);

  const batch = {
    name: options.name ?? basename(path, extname(path)),
    source: basename(path),
    paused: options.paused ?? false,
    settings: { defaults: options.defaults ?? {} },
  };
  if (kept) return store.batches.create(batch, kept, Date.now());
  return store.batches.createStreaming(batch, jobsOf(path, options), Date.now());
}

async function* jobsOf(path: string, options: ImportOptions): AsyncGenerator<NewJob> {
  for await (const record of readPromptFile(path)) {
    // The file changed between the two passes: refuse rather than import something unchecked.
    if ('error' in record) throw new PromptFileError(path, [record.error], 1);
    yield toNewJob(record.row, options);
  }
}

/** One message for every prompt over the limit, so they are listed as one problem. */
function promptTooLong(row: PromptRow, max: number): RowError | null {
  // Counting code points only when the UTF-16 length could exceed the limit.
  if (row.prompt.length <= max) return null;
  let chars = 0;
  for (const _ of row.prompt) if (++chars > max) break;
  if (chars <= max) return null;
  return {
    line: row.line,
    message: `the prompt is longer than ${max} characters (shorten it, or raise the limit with --max-prompt-chars)`,
  };
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

/**
 * What the model accepts does not depend on the prompt's words (an empty prompt is refused
 * earlier) nor on the seed's value (its range is checked per row), so rows that differ only
 * there share one check: a 100,000-row sheet usually needs a handful.
 */
type CheckCache = Map<string, string[]>;

/** What the gateway client would refuse for this row, as one message with its line. */
function checkJob(
  job: NewJob,
  line: number,
  options: ImportOptions,
  cache: CheckCache,
): RowError | null {
  if (!job.model) {
    return { line, message: 'no model: add a "model" column or give --model' };
  }
  const entry = options.catalogue.lookup(job.model);
  if (entry.kind === 'text') {
    return {
      line,
      message: `${job.model} is a text model; choose an image or video model`,
    };
  }
  if (entry.kind === 'video') return null;
  const key = JSON.stringify([job.model, job.size, job.n, job.seed === null, job.params]);
  let problems = cache.get(key);
  if (!problems) {
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
    problems = plan.ok ? [] : plan.problems;
    cache.set(key, problems);
  }
  return problems.length === 0 ? null : { line, message: problems.join(' ') };
}
