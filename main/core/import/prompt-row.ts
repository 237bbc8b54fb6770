import { z } from 'zod';
import { jsonLimitProblem } from '../../../shared/api/json-limits.ts';
import type { RowProblem } from '../../../shared/prompts/row-problems.ts';

/** One prompt of a batch file, as the person wrote it, before model-specific validation. */
export interface PromptRow {
  /** 1-based line in the file where the row starts: what error messages point at. */
  line: number;
  prompt: string;
  model?: string;
  size?: string;
  n?: number;
  seed?: number;
  quality?: string;
  output_format?: 'png' | 'jpeg' | 'webp';
  negative_prompt?: string;
  name?: string;
  /** Any other column: passed to the model as a model-private field. */
  extra: Record<string, unknown>;
}

/** A bad row (or file): its line, what is wrong as a code, and a host-neutral message. */
export interface RowError {
  line: number;
  code: RowProblem;
  message: string;
  /** too-long: the most characters a prompt may have. */
  limit?: number;
  /** too-long: the model whose own limit that is. */
  model?: string;
}

export const KNOWN_COLUMNS = [
  'prompt',
  'model',
  'size',
  'n',
  'seed',
  'quality',
  'output_format',
  'negative_prompt',
  'name',
] as const;

/** Empty cells mean "not given", so a sheet can leave optional columns blank. */
const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const text = z.preprocess(blankToUndefined, z.string().trim().optional());
const wholeNumber = (min: number, max: number) =>
  z.preprocess(
    (value) => {
      const v = blankToUndefined(value);
      return typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v;
    },
    z
      .number({ error: `must be a whole number from ${min} to ${max}` })
      .int({ error: `must be a whole number from ${min} to ${max}` })
      .min(min, { error: `must be at least ${min}` })
      .max(max, { error: `must be at most ${max}` })
      .optional(),
  );

const rowSchema = z.object({
  prompt: z.preprocess(
    blankToUndefined,
    z.string({ error: 'the prompt is missing' }).trim().min(1, { error: 'the prompt is empty' }),
  ),
  model: text,
  size: text,
  n: wholeNumber(1, 10_000),
  seed: wholeNumber(0, 4_294_967_295),
  quality: text,
  output_format: z.preprocess(
    (v) =>
      typeof blankToUndefined(v) === 'string'
        ? String(v).trim().toLowerCase()
        : blankToUndefined(v),
    z.enum(['png', 'jpeg', 'webp'], { error: 'must be png, jpeg or webp' }).optional(),
  ),
  negative_prompt: text,
  name: text,
});

/** The trimmed prompt of a record that holds a non-blank prompt and no other field, or null. */
function onlyPrompt(record: Record<string, unknown>): string | null {
  let keys = 0;
  for (const key in record) if (Object.hasOwn(record, key) && ++keys > 1) return null;
  const { prompt } = record;
  if (keys !== 1 || typeof prompt !== 'string') return null;
  const trimmed = prompt.trim();
  return trimmed === '' ? null : trimmed;
}

/** Checks one raw record (a CSV row or a JSONL object) and separates extra columns. */
export function toPromptRow(
  record: Record<string, unknown>,
  line: number,
): { row: PromptRow } | { error: RowError } {
  // JSON can write one as "\u0000": never meant, and cut short by some servers' C code
  for (const [key, value] of Object.entries(record)) {
    if (typeof value === 'string' && value.includes('\0')) {
      return {
        error: {
          line,
          code: 'field',
          message: `${key} holds a NUL character (\\u0000), which no prompt may contain`,
        },
      };
    }
  }
  // A prompt and nothing else (every line of a .txt file): what the schema would make of it,
  // without it; its parse is most of the CPU a 1,000-prompt run's import spends.
  const prompt = onlyPrompt(record);
  if (prompt !== null) return { row: { line, extra: {}, prompt } };
  const parsed = rowSchema.safeParse(record);
  if (!parsed.success) {
    const message = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || 'row'} ${issue.message}`)
      .join('; ');
    return { error: { line, code: 'field', message } };
  }
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if ((KNOWN_COLUMNS as readonly string[]).includes(key)) continue;
    if (blankToUndefined(value) === undefined || value === null) continue;
    extra[key] = value;
  }
  const tooMuch = jsonLimitProblem(extra);
  if (tooMuch) {
    const fields = Object.keys(extra).slice(0, 5).join(', ');
    return {
      error: {
        line,
        code: 'field',
        message: `its model-private fields (${fields}): this JSON ${tooMuch}`,
      },
    };
  }
  const row: PromptRow = { line, extra, prompt: parsed.data.prompt };
  for (const key of KNOWN_COLUMNS) {
    const value = parsed.data[key];
    if (key !== 'prompt' && value !== undefined) Object.assign(row, { [key]: value });
  }
  return { row };
}
