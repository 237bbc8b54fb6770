/**
 * What is wrong with a row of prompts (or the whole file), as a code a window can word in its
 * own language; the message beside it is host-neutral English.
 * - not-text: the file is no text at all (a picture renamed .txt, a zip…)
 * - encoding: text in another encoding than UTF-8/UTF-16, or with a NUL byte
 * - csv-quote: a quoted CSV field opens and is never closed
 * - csv: another CSV structure problem (a row with more or fewer columns than the header)
 * - header: the CSV header (no prompt column, a column twice)
 * - json: a JSONL line that is not a JSON object
 * - field: a value the column does not take (n not a number, an empty prompt…)
 * - no-model: no model, neither in the row nor given for every row
 * - model: what the model does not accept (a size, n, a text model for images…)
 * - too-long: a prompt over the limit (`limit`; `model` when it is the model's own)
 * - empty: the file holds no prompt
 */
export const ROW_PROBLEMS = [
  'not-text',
  'encoding',
  'csv-quote',
  'csv',
  'header',
  'json',
  'field',
  'no-model',
  'model',
  'too-long',
  'empty',
] as const;

export type RowProblem = (typeof ROW_PROBLEMS)[number];
