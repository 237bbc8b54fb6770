import { z } from 'zod';
import { OUTPUT_FORMATS } from '../../gateway/catalogue.ts';
import { ROW_PROBLEMS } from '../../prompts/row-problems.ts';
import { Count, Id, lazy, Time } from '../define.ts';
import { boundedJson } from '../json-limits.ts';
import { DownloadCounts, FailureCounts, StateCounts } from './counts.ts';
import { ConfirmedSpend, SpendCheck, SpendTotals } from './spend.ts';

/** Longest prompt text accepted through the contract (the import's own limit is lower). */
const MAX_TEXT_BYTES = 64 * 1024 * 1024;
/** Rows sent as data in one call; a larger batch comes as a file or as text. */
export const MAX_ROWS = 10_000;

/** One prompt as composed in the UI: the same columns as a prompt file's row. */
export const PromptRowInput = lazy(() =>
  z.object({
    prompt: z.string().min(1, 'the prompt is empty'),
    model: z.string().min(1).optional(),
    size: z.string().min(1).optional(),
    n: z.number().int().min(1).optional(),
    seed: z.number().int().optional(),
    quality: z.string().min(1).optional(),
    output_format: z.enum(OUTPUT_FORMATS).optional(),
    negative_prompt: z.string().optional(),
    /** A video's duration, in whole seconds as its model lists them ("8"). */
    seconds: z.string().regex(/^\d+$/, 'whole seconds, as "8"').optional(),
    name: z.string().optional(),
    /** Model-private fields, passed through as the model's catalogue allows (32 levels, 64 KiB). */
    extra: boundedJson(z.record(z.string(), z.unknown())).optional(),
  }),
);

/** Values for what a row leaves out (the CLI's --model, --size, --n…). */
export const RowDefaults = lazy(() =>
  z.object({
    model: z.string().min(1).optional(),
    size: z.string().min(1).optional(),
    n: z.number().int().min(1).optional(),
    seed: z.number().int().optional(),
    quality: z.string().min(1).optional(),
    output_format: z.enum(OUTPUT_FORMATS).optional(),
    response_format: z.enum(['url', 'b64_json']).optional(),
    /** For the rows of video models that give none. */
    seconds: z.string().regex(/^\d+$/, 'whole seconds, as "8"').optional(),
  }),
);

/** Where a batch's prompts come from: composed rows, pasted or dropped text, or a file path. */
export const BatchSource = lazy(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('rows'), rows: z.array(PromptRowInput).min(1).max(MAX_ROWS) }),
    z.object({
      kind: z.literal('text'),
      /** Decides the format: .txt, .csv or .jsonl. */
      fileName: z.string().min(1).max(255),
      text: z.string().max(MAX_TEXT_BYTES),
    }),
    /** Only where the host can read the person's files (desktop, CLI, the local web host). */
    z.object({ kind: z.literal('path'), path: z.string().min(1).max(4096) }),
  ]),
);

/**
 * A row the service refused, by its 1-based line (or row number for composed rows; 0 for the
 * whole file): what is wrong as a code a window can word in its own language, and a
 * host-neutral message (no flag of the CLI, no button of a window).
 */
export const RowError = lazy(() =>
  z.object({
    line: z.number().int().nonnegative(),
    code: z.enum(ROW_PROBLEMS).optional(),
    message: z.string(),
    /** too-long: the most characters a prompt may have. */
    limit: z.number().int().positive().optional(),
    /** too-long: the model whose own limit that is (else Atelier's, `maxPromptChars`). */
    model: z.string().optional(),
  }),
);

export const BatchCheck = lazy(() =>
  z.object({
    /** Rows read, valid or not: `jobs` of them are valid, `bad` are not. */
    rows: Count,
    /**
     * Jobs the batch would have: one per valid row. With some rows bad and some valid,
     * `create` with `skipBadRows` runs the valid ones.
     */
    jobs: Count,
    /** Images it would ask for (the sum of n). */
    images: Count,
    /** Rows with errors, capped; `bad` is the full count. */
    errors: z.array(RowError),
    bad: Count,
    /** Jobs per model, for the estimate. */
    models: z.record(z.string(), z.object({ jobs: Count, images: Count })),
    /**
     * What the gateway says ahead of the run, by model, when it can tell: a video model its list
     * for this key leaves out (video models are often controlled-access).
     */
    warnings: z.array(z.object({ model: z.string(), message: z.string() })).optional(),
    /**
     * What running its valid rows will spend, and whether starting it needs the person's
     * confirmation (`confirmedSpend` on create).
     */
    spend: SpendCheck,
  }),
);

export const BatchSummary = lazy(() =>
  z.object({
    id: Id,
    name: z.string(),
    /** The file it came from, if any. */
    source: z.string().nullable(),
    createdAt: Time,
    paused: z.boolean(),
    pauseReason: z.string().nullable(),
    priority: z.number().int(),
    jobCount: Count,
    /** Its folder inside the library. */
    dirName: z.string(),
    jobs: StateCounts,
    /** How many of its jobs (counted in `jobs`) make videos: what its results are called. */
    videos: Count,
    downloads: DownloadCounts,
    /**
     * What its jobs spent so far (results priced, and what may have been charged). The service
     * always sends it; optional so a screen's test doubles need not.
     */
    spent: SpendTotals.optional(),
  }),
);

export const BatchDetail = lazy(() =>
  BatchSummary.unwrap().extend({
    failures: FailureCounts,
    /** Succeeded jobs that returned fewer images than asked (a top-up can ask for the rest). */
    partial: Count,
    /** Failed downloads whose link expired: only generating again brings them back. */
    expiredLinks: Count,
    /** Requests sent for its jobs so far, retries included (what the gateway may have billed). */
    requests: Count,
    /** The values its rows were completed with. */
    defaults: z.record(z.string(), z.unknown()),
    /** Absolute path of its folder. */
    folder: z.string(),
  }),
);

export const CreateBatchInput = lazy(() =>
  z.object({
    source: BatchSource,
    /** By default the file's name, or "Batch" and the date. */
    name: z.string().min(1).max(200).optional(),
    defaults: RowDefaults.optional(),
    /** Created held: nothing runs until it is resumed. */
    paused: z.boolean().optional(),
    /** Run before everything queued ("run at the front of the queue"). */
    position: z.enum(['back', 'front']).default('back'),
    /** The longest prompt accepted, in characters (default 32,000; the CLI's --max-prompt-chars). */
    maxPromptChars: z.number().int().min(1).max(10_000_000).optional(),
    /**
     * The spend the person confirmed (the check's `spend.units` and `spend.requests`): needed to
     * start a batch over the confirmation threshold, else `confirmation-required`. A batch
     * created paused needs it when it is resumed instead.
     */
    confirmedSpend: ConfirmedSpend.optional(),
    /** Import the valid rows only, leaving the bad ones out (`prompt-file` when none is valid). */
    skipBadRows: z.boolean().default(false),
  }),
);

/** Resuming a held batch starts its work: over the threshold, with its confirmation. */
export const ResumeBatchInput = lazy(() =>
  z.object({ id: Id, confirmedSpend: ConfirmedSpend.optional() }),
);

export const CheckBatchInput = lazy(() =>
  z.object({ source: BatchSource, defaults: RowDefaults.optional() }),
);

export const BatchPositionInput = lazy(() =>
  z.object({ id: Id, position: z.enum(['front', 'back']) }),
);
