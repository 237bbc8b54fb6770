import { basename, extname } from 'node:path';
import type { Catalogue } from '../../../shared/gateway/catalogue.ts';
import { planGeneration } from '../gateway/build/plan.ts';
import type { JobParams } from '../engine/job-request.ts';
import { imageRequestFor, videoRequestFor } from '../engine/job-request.ts';
import { videoRequestProblems } from '../gateway/build/validate-video.ts';
import type { Batch } from '../store/rows.ts';
import type { NewJob } from '../store/job-repository.ts';
import type { Store } from '../store/store.ts';
import {
  PromptFileError,
  readPromptFile,
  readPromptText,
  type ParsedRecord,
} from './prompt-file.ts';
import { toPromptRow, type PromptRow, type RowError } from './prompt-row.ts';

/** Values for the columns a row leaves out (the CLI's --model, --size, --n, --seed…). */
export type RowDefaults = Partial<
  Pick<PromptRow, 'model' | 'size' | 'n' | 'seed' | 'quality' | 'output_format'>
> & { response_format?: 'url' | 'b64_json'; seconds?: string };

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
  /**
   * After every row is checked, before anything is inserted: may refuse (throw) the batch as
   * checked (the spend confirmation); nothing is imported then.
   */
  beforeInsert?: (check: PromptCheck) => void;
  /** Import the valid rows and leave the bad ones out ("run the N valid rows"). */
  skipBadRows?: boolean;
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

/** Where a batch's prompts come from: read once to check, and again for a long one. */
export interface PromptSource {
  /** What messages call it: the file's path, or the name pasted text was given. */
  label: string;
  /** The batch's `source` column: the file's name, or null for composed rows. */
  fileName: string | null;
  /** The batch's name unless one is given. */
  defaultName: string;
  read(): AsyncIterable<ParsedRecord>;
}

export function fileSource(path: string): PromptSource {
  return {
    label: path,
    fileName: basename(path),
    defaultName: basename(path, extname(path)),
    read: () => readPromptFile(path),
  };
}

/** Pasted or dropped text; `fileName` decides the format (.txt, .csv, .jsonl). */
export function textSource(fileName: string, text: string): PromptSource {
  return {
    label: fileName,
    fileName,
    defaultName: basename(fileName, extname(fileName)),
    read: () => readPromptText(fileName, text),
  };
}

/** Rows composed in a UI: the same checks as a file's, numbered from 1. */
export function rowsSource(
  rows: ReadonlyArray<{ extra?: Record<string, unknown> } & Record<string, unknown>>,
  name: string,
): PromptSource {
  return {
    label: 'the composed prompts',
    fileName: null,
    defaultName: name,
    async *read() {
      for (const [i, { extra, ...columns }] of rows.entries()) {
        // (named columns win over an extra field of the same name)
        yield toPromptRow({ ...extra, ...columns }, i + 1);
      }
    },
  };
}

/** What a batch would be, or why it cannot be: `batches.check` and the import's first pass. */
export interface PromptCheck {
  /** Rows read, valid or not (a file-wide problem, such as no text at all, counts one). */
  rows: number;
  /** The valid rows: the jobs the batch would have. */
  jobs: number;
  images: number;
  /** The bad rows listed (at most MAX_REPORTED_ERRORS); `bad` counts them all. */
  errors: RowError[];
  bad: number;
  models: Record<string, { jobs: number; images: number }>;
}

/** Checks every row as the import would, creating nothing. */
export async function checkPrompts(
  source: PromptSource,
  options: ImportOptions,
): Promise<PromptCheck> {
  const { check } = await firstPass(source, options, 0);
  return check;
}

/** Imports a prompt file as one batch (see importPrompts). */
export function importPromptFile(
  store: Store,
  path: string,
  options: ImportOptions,
): Promise<Batch> {
  return importPrompts(store, fileSource(path), options);
}

/**
 * Imports prompts as one batch. Every row is checked first (types, then what the model
 * accepts, by the same validation the gateway client applies before sending), so a bad row
 * is reported with its line number and nothing is imported; then the rows are inserted in
 * one transaction (read again for a long file, never holding it in memory).
 */
export async function importPrompts(
  store: Store,
  source: PromptSource,
  options: ImportOptions,
): Promise<Batch> {
  const { check, kept } = await firstPass(source, options, options.keptRows ?? KEPT_ROWS);
  // (with skipBadRows, a file of bad rows only is still refused, with those rows)
  if (check.bad > 0 && (!options.skipBadRows || check.jobs === 0)) {
    throw new PromptFileError(source.label, check.errors, check.bad);
  }
  if (check.jobs === 0) {
    throw new PromptFileError(
      source.label,
      [{ line: 0, code: 'empty', message: HOLDS_NO_PROMPT }],
      1,
    );
  }
  options.beforeInsert?.(check);
  const batch = {
    name: options.name ?? source.defaultName,
    source: source.fileName,
    paused: options.paused ?? false,
    settings: { defaults: options.defaults ?? {} },
  };
  if (kept) return store.batches.create(batch, kept, Date.now());
  return store.batches.createStreaming(batch, jobsOf(source, options), Date.now());
}

export const HOLDS_NO_PROMPT = 'the file holds no prompt';

/** A row as the import takes it (its job), or why it cannot be taken. */
type Checked = { job: NewJob; problem: null } | { job: null; problem: RowError };

/** One record of the file, checked as the run would: types, length, what the model takes. */
function checkRecord(record: ParsedRecord, options: ImportOptions, cache: CheckCache): Checked {
  if ('error' in record) return { job: null, problem: record.error };
  const job = toNewJob(record.row, options);
  const maxPromptChars = options.maxPromptChars ?? DEFAULT_MAX_PROMPT_CHARS;
  const problem =
    promptTooLong(record.row, maxPromptChars, modelPromptLimit(job, options)) ??
    checkJob(job, record.row.line, options, cache);
  return problem ? { job: null, problem } : { job, problem: null };
}

async function firstPass(
  source: PromptSource,
  options: ImportOptions,
  keep: number,
): Promise<{ check: PromptCheck; kept: NewJob[] | null }> {
  const check: PromptCheck = { rows: 0, jobs: 0, images: 0, errors: [], bad: 0, models: {} };
  const cache: CheckCache = new Map();
  let kept: NewJob[] | null = [];
  for await (const record of source.read()) {
    check.rows++;
    const { job, problem } = checkRecord(record, options, cache);
    if (problem) {
      check.bad++;
      // (the valid rows are kept only when they are what will be imported)
      if (!options.skipBadRows) kept = null;
      if (check.errors.length < MAX_REPORTED_ERRORS) check.errors.push(problem);
      continue;
    }
    check.jobs++;
    check.images += job.n ?? 1;
    const model = (check.models[job.model] ??= { jobs: 0, images: 0 });
    model.jobs++;
    model.images += job.n ?? 1;
    if (kept && check.jobs > keep) kept = null;
    else kept?.push(job);
  }
  return { check, kept };
}

async function* jobsOf(source: PromptSource, options: ImportOptions): AsyncGenerator<NewJob> {
  const cache: CheckCache = new Map();
  for await (const record of source.read()) {
    if (options.skipBadRows) {
      const { job } = checkRecord(record, options, cache);
      if (job) yield job;
      continue;
    }
    // The file changed between the two passes: refuse rather than import something unchecked.
    if ('error' in record) throw new PromptFileError(source.label, [record.error], 1);
    yield toNewJob(record.row, options);
  }
}

/** The longest prompt the row's model takes, when the catalogue knows it. */
function modelPromptLimit(
  job: NewJob,
  options: ImportOptions,
): { model: string; max: number } | null {
  const entry = options.catalogue.lookup(job.model);
  return entry.kind === 'image' && entry.maxPromptChars !== null
    ? { model: entry.id, max: entry.maxPromptChars }
    : null;
}

/** One message for every prompt over the limit, so they are listed as one problem. */
function promptTooLong(
  row: PromptRow,
  max: number,
  model: { model: string; max: number } | null,
): RowError | null {
  const limit = model && model.max < max ? model.max : max;
  // Counting code points only when the UTF-16 length could exceed the limit.
  if (row.prompt.length <= limit) return null;
  let chars = 0;
  for (const _ of row.prompt) if (++chars > limit) break;
  if (chars <= limit) return null;
  return limit === max
    ? {
        line: row.line,
        code: 'too-long',
        limit,
        message: `the prompt is longer than ${max} characters (shorten it, or raise the longest prompt accepted)`,
      }
    : {
        line: row.line,
        code: 'too-long',
        limit,
        model: model!.model,
        message: `the prompt is longer than ${limit} characters, the most ${model!.model} takes (shorten it)`,
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
  const kind = options.catalogue.lookup(model).kind === 'video' ? 'video' : 'image';
  if (kind === 'video' && params.seconds === undefined && d.seconds) params.seconds = d.seconds;
  return {
    prompt: row.prompt,
    model,
    kind,
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
    return {
      line,
      code: 'no-model',
      message: 'no model: add a "model" column, or choose a model for the rows that give none',
    };
  }
  const entry = options.catalogue.lookup(job.model);
  if (entry.kind === 'text') {
    return {
      line,
      code: 'model',
      message: `${job.model} is a text model; choose an image or video model`,
    };
  }
  const key = JSON.stringify([job.model, job.size, job.n, job.seed === null, job.params]);
  let problems = cache.get(key);
  if (!problems && entry.kind === 'video') {
    problems = videoRequestProblems(
      options.catalogue,
      videoRequestFor({ ...job, size: job.size ?? null, params: job.params ?? {} }),
    );
    cache.set(key, problems);
  }
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
  return problems.length === 0 ? null : { line, code: 'model', message: problems.join(' ') };
}
