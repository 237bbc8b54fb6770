import type { SplitMode } from '../split-prompts.ts';
import { escapeTemplate } from '../template.ts';

/** One prompt of the prompts box: where it stands in the text, and its words. */
export interface PromptBlock {
  /** The whole line (or paragraph) as it stands, from `start` to `end`. */
  raw: string;
  start: number;
  end: number;
  /** Its words, trimmed: what prompt help is asked about. */
  text: string;
  /** 1-based line where it starts. */
  line: number;
}

/** The prompt the caret is in: its line, or its paragraph; null on a blank line. */
export function promptAtCaret(text: string, caret: number, split: SplitMode): PromptBlock | null {
  const at = Math.max(0, Math.min(caret, text.length));
  const lineStart = (i: number) => text.lastIndexOf('\n', i - 1) + 1;
  const lineEnd = (i: number) => {
    const end = text.indexOf('\n', i);
    return end === -1 ? text.length : end;
  };
  const blank = (from: number) => text.slice(from, lineEnd(from)).trim() === '';
  let start = lineStart(at);
  let end = lineEnd(at);
  if (blank(start)) return null;
  if (split === 'paragraph') {
    // the run of non-blank lines around the caret's
    while (start > 0 && !blank(lineStart(start - 1))) start = lineStart(start - 1);
    while (end < text.length && !blank(end + 1)) end = lineEnd(end + 1);
  }
  const raw = text.slice(start, end);
  return { raw, start, end, text: raw.trim(), line: text.slice(0, start).split('\n').length };
}

/** A prompt as the box takes it in this split mode: literal (escaped), one line or one paragraph. */
function asBoxed(prompt: string, split: SplitMode): string {
  const shaped =
    split === 'line' ? prompt.replace(/\s*\n\s*/g, ' ') : prompt.replace(/\n(?:[ \t]*\n)+/g, '\n'); // a blank line would cut it in two
  return escapeTemplate(shaped.trim());
}

const separator = (split: SplitMode) => (split === 'line' ? '\n' : '\n\n');

/** Prompts put after what the box holds, each literal, one per line or per paragraph. */
export function appendPrompts(text: string, prompts: readonly string[], split: SplitMode): string {
  const added = prompts
    .map((p) => asBoxed(p, split))
    .filter((p) => p !== '')
    .join(separator(split));
  if (added === '') return text;
  const body = text.replace(/\s+$/, '');
  return body === '' ? added : `${body}${separator(split)}${added}`;
}

export type Placed = 'in-place' | 'moved' | 'appended';

/**
 * An expansion put in place of the prompt it was made of, or variations after it. The box may
 * have changed while the model wrote: the prompt is found where it was, else wherever it is now;
 * gone, the result is added at the end (`placed` says which, for the message).
 */
export function placeResult(
  text: string,
  source: PromptBlock,
  kind: 'expand' | 'vary',
  results: readonly string[],
  split: SplitMode,
): { text: string; placed: Placed } {
  const shaped = results.map((r) => asBoxed(r, split)).filter((r) => r !== '');
  if (shaped.length === 0) return { text, placed: 'in-place' };
  let start = source.start;
  let placed: Placed = 'in-place';
  if (text.slice(source.start, source.end) !== source.raw) {
    start = text.indexOf(source.raw);
    placed = 'moved';
  }
  if (start === -1) return { text: appendPrompts(text, results, split), placed: 'appended' };
  const end = start + source.raw.length;
  const inserted =
    kind === 'expand'
      ? shaped[0]!
      : `${source.raw}${separator(split)}${shaped.join(separator(split))}`;
  return { text: `${text.slice(0, start)}${inserted}${text.slice(end)}`, placed };
}
