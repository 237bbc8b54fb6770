/**
 * Removes reasoning blocks (`<think>…</think>`, `<thinking>…</thinking>`) from text that arrives
 * in pieces: a tag may be split anywhere between two pieces, a block may span many, and one
 * never closed hides the rest. Case-insensitive. Pure, incremental.
 */
export interface ThinkFilter {
  /** The visible text this piece completes (held back: what may be the start of a tag). */
  push(piece: string): string;
  /** The stream ended: what was held back, unless it is inside a block. */
  end(): string;
  /** Inside a reasoning block now. */
  readonly thinking: boolean;
}

const OPEN = /<(think|thinking)>/i;
const CLOSE = /<\/(think|thinking)>/i;
const LONGEST_TAG = '</thinking>'.length;

/** How many characters at the end of `text` could begin one of `tags`. */
function heldTail(text: string, tags: readonly string[]): number {
  const lower = text.slice(-LONGEST_TAG).toLowerCase();
  for (let start = 0; start < lower.length; start++) {
    const tail = lower.slice(start);
    if (tags.some((tag) => tag.startsWith(tail) && tail.length < tag.length)) {
      return lower.length - start;
    }
  }
  return 0;
}

const OPEN_TAGS = ['<think>', '<thinking>'] as const;
const CLOSE_TAGS = ['</think>', '</thinking>'] as const;

export function createThinkFilter(): ThinkFilter {
  let buffer = '';
  let thinking = false;
  return {
    get thinking() {
      return thinking;
    },
    push(piece) {
      buffer += piece;
      let visible = '';
      for (;;) {
        const match = (thinking ? CLOSE : OPEN).exec(buffer);
        if (!match) break;
        if (!thinking) visible += buffer.slice(0, match.index);
        buffer = buffer.slice(match.index + match[0].length);
        thinking = !thinking;
      }
      const hold = heldTail(buffer, thinking ? CLOSE_TAGS : OPEN_TAGS);
      const ready = buffer.slice(0, buffer.length - hold);
      buffer = buffer.slice(buffer.length - hold);
      return thinking ? visible : visible + ready;
    },
    end() {
      const rest = thinking ? '' : buffer;
      buffer = '';
      return rest;
    },
  };
}
