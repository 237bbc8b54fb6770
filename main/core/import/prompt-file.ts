import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { pipeline, Readable, Transform } from 'node:stream';
import { parse } from 'csv-parse';
import { printable } from '../../../shared/text/printable.ts';
import { plural } from '../../../shared/text/plural.ts';
import { toPromptRow, type PromptRow, type RowError } from './prompt-row.ts';
import { promptText, PromptTextError } from './prompt-text.ts';
import { textLines } from './text-lines.ts';

export type PromptFileFormat = 'txt' | 'csv' | 'jsonl';

export function formatOf(path: string): PromptFileFormat {
  const ext = extname(path).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  if (ext === '.txt' || ext === '') return 'txt';
  throw new Error(`Cannot read "${path}": use a .txt (one prompt a line), .csv or .jsonl file.`);
}

export type ParsedRecord = { row: PromptRow } | { error: RowError };

/**
 * Streams the rows of a prompt file without loading it whole (a batch may hold a million).
 * Bad rows come out as errors with their line numbers; the caller decides what to do. The
 * file may be UTF-8 or UTF-16 (what Windows calls "Unicode"); bytes that are not text (invalid
 * UTF-8, a NUL) end the reading with an error for their line.
 */
export function readPromptFile(path: string): AsyncGenerator<ParsedRecord> {
  return readPrompts(path, () => createReadStream(path));
}

/**
 * The rows of prompt text that did not come from a file (pasted, or dropped in a browser),
 * read by the same code as a file: `fileName` decides the format (.txt, .csv, .jsonl).
 */
export function readPromptText(fileName: string, text: string): AsyncGenerator<ParsedRecord> {
  return readPrompts(fileName, () => Readable.from([Buffer.from(text, 'utf8')]));
}

/** What prompt text is read from: opened once per pass (a long file is read twice). */
type Open = () => Readable;

async function* readPrompts(name: string, open: Open): AsyncGenerator<ParsedRecord> {
  const format = formatOf(name);
  try {
    if (format === 'csv') yield* readCsv(open);
    else yield* readLines(open, format);
  } catch (error) {
    if (isFileSystemError(error)) throw new PromptFileReadError(name, error);
    if (error instanceof PromptTextError) {
      yield { error: { line: error.line, code: error.code, message: error.message } };
      return;
    }
    throw error;
  }
}

/** The file's text as checked UTF-8 bytes; a read or encoding error reaches the reader. */
function textOf(open: Open, blank: ReadonlySet<number> = NO_LINES) {
  // pipeline, not pipe: an error of either stream must reach the loop that reads the result
  return blank.size === 0
    ? pipeline(open(), promptText(), () => {})
    : pipeline(open(), promptText(), blankLines(blank), () => {});
}

const NO_LINES: ReadonlySet<number> = new Set();

/** An error from the file itself (EACCES, EISDIR, EIO…), not from its content. */
function isFileSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

async function* readLines(open: Open, format: 'txt' | 'jsonl'): AsyncGenerator<ParsedRecord> {
  let line = 0;
  for await (const content of textLines(textOf(open).setEncoding('utf8'))) {
    line++;
    if (content.trim() === '') continue;
    if (format === 'txt') {
      // A line starting with # is a comment, so a prompt list can be annotated.
      if (content.trimStart().startsWith('#')) continue;
      yield toPromptRow({ prompt: content }, line);
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch (error) {
      yield {
        error: { line, code: 'json', message: `not valid JSON (${(error as Error).message})` },
      };
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      yield {
        error: {
          line,
          code: 'json',
          message: 'each line must be a JSON object like {"prompt": "…"}',
        },
      };
      continue;
    }
    yield toPromptRow(value as Record<string, unknown>, line);
  }
}

/** The most unclosed quotes read past: each costs one more reading of the file. */
const MAX_UNCLOSED_QUOTES = 20;

export const UNCLOSED_QUOTE =
  'a quoted field opens here and is never closed, so the rest of the file would be read into ' +
  'it: close its quote, or write a quote inside a quoted field as two ("")';

/**
 * A CSV file's rows and its bad rows, each with its line, in order. A row with more or fewer
 * columns than the header, or a stray quote, is reported and the reading goes on with the
 * next row; a quote never closed (which would swallow every later row into one field) is
 * reported on the line it opens, and the file is read again without that line, so the rows
 * after it are checked too.
 */
async function* readCsv(open: Open): AsyncGenerator<ParsedRecord> {
  const blank = new Set<number>();
  // rows and errors up to this line were given out by an earlier reading
  let shown = 0;
  for (let pass = 0; ; pass++) {
    let unclosed = false;
    for await (const record of readCsvOnce(open, blank)) {
      if ('error' in record && record.error.code === 'csv-quote') {
        unclosed = true;
        continue;
      }
      const line = 'error' in record ? record.error.line : record.row.line;
      if (line <= shown) continue;
      shown = line;
      yield record;
    }
    if (!unclosed) return;
    const opened = await unclosedQuoteLine(open, blank);
    if (opened === null || pass >= MAX_UNCLOSED_QUOTES) {
      yield { error: { line: opened ?? shown + 1, code: 'csv-quote', message: UNCLOSED_QUOTE } };
      return;
    }
    yield { error: { line: opened, code: 'csv-quote', message: UNCLOSED_QUOTE } };
    blank.add(opened);
    shown = Math.max(shown, opened);
  }
}

/** One reading of a CSV file (`blank` lines read as empty); an unclosed quote as a csv-quote. */
async function* readCsvOnce(open: Open, blank: ReadonlySet<number>): AsyncGenerator<ParsedRecord> {
  let twice: string | null = null;
  // rows a reading skipped (a wrong column count, a stray quote), given out in line order
  const skipped: RowError[] = [];
  const parser = pipeline(
    textOf(open, blank),
    parse({
      bom: true,
      columns: (header: string[]) => {
        const names = header.map((h) => h.trim().toLowerCase());
        twice = names.find((name, i) => name !== '' && names.indexOf(name) !== i) ?? null;
        return names;
      },
      skip_empty_lines: true,
      trim: false,
      relax_column_count: false,
      skip_records_with_error: true,
      info: true,
    }),
    // (the error also ends the loop below, where it is handled)
    () => {},
  );
  parser.on('skip', (error: Error & { code?: string; lines?: number }) =>
    skipped.push(csvProblem(error)),
  );
  const before = function* (line: number) {
    skipped.sort((a, b) => a.line - b.line);
    while (skipped.length > 0 && skipped[0]!.line <= line) yield { error: skipped.shift()! };
  };
  let headerChecked = false;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number; columns: Array<{ name: string }> | boolean };
    }>) {
      if (!headerChecked) {
        headerChecked = true;
        if (twice !== null) {
          // read as one, the last would silently win
          const message =
            `the header row has the column "${twice}" twice (names are matched ignoring ` +
            'case and spaces): keep one';
          yield { error: { line: 1, code: 'header', message } };
          return;
        }
        if (!('prompt' in record)) {
          yield {
            error: { line: 1, code: 'header', message: 'the header row has no "prompt" column' },
          };
          return;
        }
      }
      yield* before(info.lines);
      yield toPromptRow(record, info.lines);
    }
  } catch (error) {
    if (isFileSystemError(error) || error instanceof PromptTextError) throw error;
    skipped.push(csvProblem(error as Error & { code?: string; lines?: number }));
  }
  yield* before(Infinity);
}

/** A CSV parser's error as a bad row. */
function csvProblem(error: Error & { code?: string; lines?: number }): RowError {
  const line = error.lines ?? 0;
  if (error.code === 'CSV_QUOTE_NOT_CLOSED')
    return { line, code: 'csv-quote', message: UNCLOSED_QUOTE };
  return { line, code: 'csv', message: error.message.replace(/^Invalid Record Length: /, '') };
}

/**
 * The line where the quote that is never closed opens: quotes counted line by line (a doubled
 * "" counts twice, so it changes nothing), outside the lines already blanked.
 */
async function unclosedQuoteLine(open: Open, blank: ReadonlySet<number>): Promise<number | null> {
  let line = 1;
  let inside = false;
  let opened: number | null = null;
  for await (const chunk of textOf(open, blank) as AsyncIterable<Buffer>) {
    for (const byte of chunk) {
      if (byte === 0x22) {
        inside = !inside;
        if (inside) opened = line;
      } else if (byte === 0x0a) line++;
    }
  }
  return inside ? opened : null;
}

/** Drops the bytes of the given lines (their line breaks kept, so every other keeps its number). */
function blankLines(lines: ReadonlySet<number>): Transform {
  let line = 1;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const kept: Buffer[] = [];
      let start = 0;
      for (let i = 0; i < chunk.length; i++) {
        if (chunk[i] !== 0x0a) continue;
        if (!lines.has(line)) kept.push(chunk.subarray(start, i + 1));
        else kept.push(Buffer.from('\n'));
        start = i + 1;
        line++;
      }
      if (start < chunk.length && !lines.has(line)) kept.push(chunk.subarray(start));
      callback(null, Buffer.concat(kept));
    },
  });
}

/** Thrown when the file cannot be read (permissions, a disk error): nothing of it was imported. */
export class PromptFileReadError extends Error {
  constructor(path: string, cause: NodeJS.ErrnoException) {
    super(
      `Cannot read the prompt file ${path} (${cause.message}); nothing was imported. ` +
        'Check that it is a readable file and run again.',
      { cause },
    );
  }
}

/** Thrown when a file has bad rows: nothing of it was imported. */
export class PromptFileError extends Error {
  readonly errors: RowError[];
  /** How many rows are bad (`errors` may list fewer). */
  readonly bad: number;
  /** `errors`: the bad rows listed (possibly not all of them); `total`: how many there are. */
  constructor(path: string, errors: RowError[], total: number) {
    super(
      `${path} has ${plural(total, 'bad row')}; nothing was imported. Fix ` +
        `${total === 1 ? 'it' : 'them'} and try again:\n${describeRowErrors(errors, total)}`,
    );
    this.errors = errors;
    this.bad = total;
  }
}

/** Kinds of problem listed; the rest are counted. */
const SHOWN_PROBLEMS = 20;
/** Line numbers listed for one kind of problem. */
const SHOWN_LINES = 5;

/**
 * One line per kind of problem, with the lines that have it: sixty rows without a model make
 * one line, not twenty that say the same thing and "… and 40 more".
 */
export function describeRowErrors(
  errors: ReadonlyArray<Pick<RowError, 'line' | 'message'>>,
  total: number,
): string {
  const byMessage = new Map<string, number[]>();
  for (const { line, message } of errors) {
    const lines = byMessage.get(message);
    if (lines) lines.push(line);
    else byMessage.set(message, [line]);
  }
  const groups = [...byMessage];
  const shown = groups.slice(0, SHOWN_PROBLEMS).map(([raw, lines]) => {
    // messages quote the file (a JSON parser's excerpt, a size, a model name)
    const message = printable(raw);
    if (lines.length === 1) return `  line ${lines[0]}: ${message}`;
    const listed = lines.slice(0, SHOWN_LINES).join(', ');
    const more = lines.length > SHOWN_LINES ? ` and ${lines.length - SHOWN_LINES} more` : '';
    return `  lines ${listed}${more}: ${message}`;
  });
  const unlisted =
    total - groups.slice(0, SHOWN_PROBLEMS).reduce((sum, [, lines]) => sum + lines.length, 0);
  if (unlisted > 0) shown.push(`  … and ${plural(unlisted, 'more bad row')}`);
  return shown.join('\n');
}
