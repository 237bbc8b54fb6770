import type { PromptHelp } from '../../../data/types.ts';

/** One suggested prompt as the panel shows it: the person may edit it and tick it to keep. */
export interface Suggestion {
  key: string;
  text: string;
  /** What the model wrote, before the person's edits: asked never to come again. */
  written: string;
  /** What was changed in it (cut to the target model's limit). */
  note: string | null;
  ticked: boolean;
}

/** The person's changes to a prompt of the request that streams now, by its index. */
export interface RowEdit {
  text?: string;
  ticked?: boolean;
}

export const rowKey = (requestId: string, index: number) => `${requestId}:${index}`;

/**
 * The rows of the panel: those kept from earlier requests (ticked before "regenerate the
 * rest"), then the prompts of the request streaming now, as the person edited them.
 */
export function suggestionRows(
  kept: readonly Suggestion[],
  help: PromptHelp | undefined,
  edits: Readonly<Record<number, RowEdit>>,
): Suggestion[] {
  const streamed = (help?.prompts ?? []).map((idea) => ({
    key: rowKey(help!.id, idea.index),
    text: edits[idea.index]?.text ?? idea.text,
    written: idea.text,
    note: idea.note,
    ticked: edits[idea.index]?.ticked ?? false,
  }));
  return [...kept, ...streamed];
}

/** The prompts worth sending: edited to nothing, a row is left out. */
export const textsOf = (rows: readonly Suggestion[]) =>
  rows.map((row) => row.text.trim()).filter((text) => text !== '');

/** Every prompt the rows showed, as written and as edited: none of them is wanted again. */
export const seenOf = (rows: readonly Suggestion[]) => [
  ...new Set(rows.flatMap((row) => [row.text.trim(), row.written]).filter((text) => text !== '')),
];
