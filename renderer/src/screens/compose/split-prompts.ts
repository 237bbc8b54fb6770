/** How pasted text becomes prompts: one per line, or one per blank-line-separated paragraph. */
export type SplitMode = 'line' | 'paragraph';

/** One prompt as written, with where it starts in the text (1-based), for error messages. */
export interface PromptSpan {
  text: string;
  line: number;
  column: number;
}

const BLANK_LINE = /\n[ \t]*\n/;

/**
 * Splits pasted text into prompts. By line: every non-empty line is a prompt. By paragraph:
 * blocks separated by one or more blank lines, their inner line breaks kept (multi-line
 * prompts survive). Surrounding spaces are trimmed; empty prompts are dropped.
 */
export function splitPrompts(text: string, mode: SplitMode): PromptSpan[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const spans: PromptSpan[] = [];
  let block: { lines: string[]; first: number } | null = null;
  const flush = () => {
    if (block) spans.push(spanOf(block.lines.join('\n'), block.first));
    block = null;
  };
  lines.forEach((line, i) => {
    if (line.trim() === '') return mode === 'paragraph' ? flush() : undefined;
    if (mode === 'line') spans.push(spanOf(line, i + 1));
    else if (block) block.lines.push(line);
    else block = { lines: [line], first: i + 1 };
  });
  flush();
  return spans;
}

function spanOf(raw: string, line: number): PromptSpan {
  const leading = raw.length - raw.trimStart().length;
  return { text: raw.trim(), line, column: leading + 1 };
}

/**
 * The mode pasted text most likely means: paragraphs when it has blank-line-separated blocks
 * and at least one of them spans several lines; lines otherwise.
 */
export function suggestSplitMode(text: string): SplitMode {
  const normalized = text.replace(/\r\n?/g, '\n').trim();
  if (!BLANK_LINE.test(normalized)) return 'line';
  return splitPrompts(normalized, 'paragraph').some((p) => p.text.includes('\n'))
    ? 'paragraph'
    : 'line';
}
