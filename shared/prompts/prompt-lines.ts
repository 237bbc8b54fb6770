import { createThinkFilter } from './think-filter.ts';

/** One prompt a text model wrote, cleaned; `note` says what was changed (cut to the limit). */
export interface PromptIdea {
  text: string;
  note: string | null;
}

/** The longest prompt when the target model's limit is not known (the import's own limit). */
export const DEFAULT_PROMPT_LIMIT = 32_000;

// A list marker: "1.", "1)", "(1)", "#1", "1 -", "1:", "Prompt 1:", bullets, "- [ ]".
// A number needs a space after its mark, so "3.5 m" or "4:3 frame" keep their numbers.
const LIST_MARKER =
  /^(?:(?:prompt|variation|idea)\s*#?\d+\s*[:.)-]\s*|\(?#?\d{1,3}\s*[.):\]]\s+|\d{1,3}\s+[-–—]\s+|#\d{1,3}\s+|[-*•·‣◦▪▸►–—+]\s+(?:\[[ xX]\]\s+)?)/i;
/** Emphasis around a whole line (`**…**`, `__…__`) and quotes of every kind. */
const WRAPPERS: Array<[string, string]> = [
  ['**', '**'],
  ['__', '__'],
  ['"', '"'],
  ["'", "'"],
  ['“', '”'],
  ['‘', '’'],
  ['«', '»'],
  ['„', '“'],
  ['「', '」'],
  ['『', '』'],
  ['`', '`'],
];

/**
 * One line of a model's answer as a prompt, or null when it is not one: blank, a heading, a
 * code fence or rule, or the model's own preamble ("Here are 5 prompts:"). List numbers,
 * bullets, emphasis and quotes around the whole line are stripped, and bold marks inside it.
 */
export function cleanPromptLine(line: string): string | null {
  let text = line.replace(/\s+/g, ' ').trim();
  if (text === '' || /^(```|~~~|---+$|\*\*\*+$|===+$|#{1,6}\s)/.test(text)) return null;
  const marked = LIST_MARKER.exec(text);
  if (marked) text = text.slice(marked[0].length).trim();
  // a line that introduces the list, not a prompt (only when it carried no list marker)
  if (!marked && text.endsWith(':')) return null;
  for (let changed = true; changed;) {
    changed = false;
    for (const [open, close] of WRAPPERS) {
      if (
        text.length > open.length + close.length &&
        text.startsWith(open) &&
        text.endsWith(close)
      ) {
        text = text.slice(open.length, text.length - close.length).trim();
        changed = true;
      }
    }
  }
  // bold inside the line ("**Lantern stalls**, rain"): the words stay, the marks go
  text = dropLoneQuote(text.replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, '$1'));
  return text === '' ? null : text;
}

/** A quote left at one end with no partner (the model opened it on one line, closed it on another). */
function dropLoneQuote(text: string): string {
  let result = text;
  if ('"“„«「『'.includes(result[0] ?? 'x') && !/["”»」』“]/u.test(result.slice(1))) {
    result = result.slice(1);
  }
  if ('"”»」』'.includes(result.at(-1) ?? 'x') && !/["“„«「『]/u.test(result.slice(0, -1))) {
    result = result.slice(0, -1);
  }
  return result.trim();
}

/** What makes two prompts the same: case, spacing and the punctuation at their end. */
export function promptKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s.,;:!?…。，]+$/u, '')
    .trim();
}

/** Code points, so a cut never splits a character made of two UTF-16 units. */
function charCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * The prompt cut to `limit` characters, at the last space or comma in its final fifth when
 * there is one, with a note saying so; unchanged (note null) when it fits.
 */
export function clampPrompt(text: string, limit: number, targetModel: string | null): PromptIdea {
  const length = charCount(text);
  if (length <= limit) return { text, note: null };
  const chars = Array.from(text).slice(0, limit);
  let cut = chars.join('');
  const boundary = Math.max(cut.lastIndexOf(' '), cut.lastIndexOf(','));
  if (boundary >= cut.length * 0.8) cut = cut.slice(0, boundary);
  cut = cut.replace(/[\s,;:]+$/, '');
  const whose = targetModel ? `the prompt limit of ${targetModel}` : 'the prompt limit';
  return {
    text: cut,
    note: `Cut to ${charCount(cut).toLocaleString('en-US')} characters, ${whose} (the model wrote ${length.toLocaleString('en-US')}).`,
  };
}

export interface PromptParserOptions {
  /** The target model's prompt limit, in characters. */
  limit: number;
  /** The model the prompts are for, named in notes. */
  targetModel: string | null;
  /** 'lines': one prompt per line (themes, variations); 'whole': the answer is one prompt. */
  mode: 'lines' | 'whole';
  /** Stop at this many prompts (the rest of the answer is ignored). */
  count?: number;
  /** Prompts already kept: the same again counts as a duplicate. */
  exclude?: readonly string[];
}

export interface PromptParser {
  /** Takes a piece of the streamed answer; returns the prompts it completed. */
  push(piece: string): PromptIdea[];
  /** The answer ended: the last prompt, if any. */
  end(): PromptIdea[];
  /** The line being written now, cleaned as far as it goes ('' inside a reasoning block). */
  partial(): string;
  /** Lines dropped because they repeated an earlier prompt (or one in `exclude`). */
  readonly duplicates: number;
  /** `count` prompts are in: the rest of the answer is not needed. */
  readonly full: boolean;
}

/**
 * Turns a text model's streamed answer into prompts, as the pieces arrive: reasoning blocks
 * removed (even split across pieces), one prompt per line (or the whole answer as one),
 * cleaned, duplicates dropped, each cut to the target model's limit with a note. Pure.
 */
export function createPromptParser(options: PromptParserOptions): PromptParser {
  const think = createThinkFilter();
  const seen = new Set((options.exclude ?? []).map(promptKey));
  const count = options.count ?? Infinity;
  let pending = '';
  let made = 0;
  let duplicates = 0;
  const whole: string[] = [];

  const accept = (raw: string): PromptIdea[] => {
    if (made >= count) return [];
    const text = cleanPromptLine(raw);
    if (text === null) return [];
    const key = promptKey(text);
    if (seen.has(key)) {
      duplicates++;
      return [];
    }
    seen.add(key);
    made++;
    return [clampPrompt(text, options.limit, options.targetModel)];
  };

  const lines = (visible: string, final: boolean): PromptIdea[] => {
    pending += visible;
    const parts = pending.split(/\r\n|\r|\n/);
    pending = final ? '' : (parts.pop() ?? '');
    if (options.mode === 'whole') {
      whole.push(...parts.map(cleanPromptLine).filter((line): line is string => line !== null));
      return final ? accept(whole.join(' ')) : [];
    }
    return parts.flatMap(accept);
  };

  return {
    push: (piece) => lines(think.push(piece), false),
    end: () => lines(think.end(), true),
    partial() {
      if (think.thinking || made >= count) return '';
      const current = cleanPromptLine(pending) ?? '';
      return options.mode === 'whole' ? [...whole, current].filter(Boolean).join(' ') : current;
    },
    get duplicates() {
      return duplicates;
    },
    get full() {
      return made >= count;
    },
  };
}
