import type { TextMessage } from './messages.ts';

/**
 * A request for image or video prompts, as the simulated model understands one: read from the
 * words of the conversation, the way a language model would, not from any client's format.
 * "Write 5 prompts about lighthouses", "Give me ten variations of this prompt: …", "Expand
 * this prompt: …"; tags when the conversation asks for tags or comma-separated keywords.
 */
export interface PromptRequest {
  task: 'theme' | 'variations' | 'expand';
  /** The theme, or the prompt to vary or expand. */
  subject: string;
  count: number;
  style: 'prose' | 'tags';
  video: boolean;
  /** The longest prompt asked for, in characters, when the conversation says. */
  maxChars: number | null;
  /** Prompts the conversation lists as already had: not to be written again. */
  avoid: string[];
}

const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  fifty: 50,
  hundred: 100,
};
/** What the simulated model writes at most in one answer. */
export const MOST_PROMPTS = 100;
const DEFAULT_COUNT = 5;

const COUNTED =
  /\b(\d{1,4}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|fifty|hundred)\s+(?:(?:different|new|more|distinct|short|detailed|image|video|text-to-image|text-to-video|unique|creative)\s+)*(prompts?|variations?|versions?|ideas?)\b/i;

function countIn(text: string): number | null {
  const match = COUNTED.exec(text);
  if (!match) return null;
  const word = match[1]!.toLowerCase();
  const count = /^\d+$/.test(word) ? Number(word) : (NUMBER_WORDS[word] ?? DEFAULT_COUNT);
  return Math.min(MOST_PROMPTS, Math.max(1, count));
}

/** The words after the first colon that follows `from`, or after "about"/"on the theme of". */
function subjectIn(text: string, from: number): string | null {
  const rest = text.slice(from);
  const colon = /:\s*([\s\S]+)/.exec(rest);
  const about = /\b(?:about|on the theme of|on the subject of|themed around)\s+([\s\S]+)/i.exec(
    rest,
  );
  const found = colon?.[1] ?? about?.[1];
  if (!found) return null;
  const line = found.split(/\n\s*\n|\n(?=\s*(?:they|it|each|avoid|do not|don't)\b)/i)[0]!;
  const subject = line
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["'“«]|["'”»]$/g, '')
    .replace(/[.\s]+$/, '')
    .trim();
  return subject === '' ? null : subject;
}

/** Lines of the form "- …" after a mention of prompts already kept or to avoid. */
function avoidedIn(text: string): string[] {
  const at = /\b(?:already|avoid|differ from|different from|not repeat|except)\b/i.exec(text);
  if (!at) return [];
  return text
    .slice(at.index)
    .split('\n')
    .map((line) => /^\s*[-*•]\s+(.+)$/.exec(line)?.[1]?.trim())
    .filter((line): line is string => Boolean(line));
}

/** Reads the conversation; null when it asks for something other than prompts. */
export function readPromptRequest(messages: readonly TextMessage[]): PromptRequest | null {
  const user = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const all = messages.map((m) => m.content).join('\n');
  // what is asked stands before the first colon; the theme or prompt after it may say anything
  const head = user.split(':')[0]!;
  const expand = /\b(expand|elaborate|flesh out|enrich)\b/i.exec(head);
  const vary = /\bvariations?\b|\bversions?\b/i.exec(head);
  const prompts = /\bprompts?\b|\bideas?\b/i.exec(head);
  const task = expand ? 'expand' : vary ? 'variations' : prompts ? 'theme' : null;
  if (!task) return null;
  const keyword = (expand ?? vary ?? prompts)!;
  const subject = subjectIn(user, keyword.index);
  if (!subject) return null;
  const limit =
    /\b(?:under|at most|no more than|fewer than|within)\s+([\d,]+)\s+characters\b/i.exec(all);
  return {
    task,
    subject: task === 'theme' ? subject : subject.split('\n')[0]!,
    count: task === 'expand' ? 1 : (countIn(head) ?? DEFAULT_COUNT),
    style: /\btags?\b|comma-separated|keywords/i.test(all) ? 'tags' : 'prose',
    video: /\bvideos?\b|text-to-video/i.test(all),
    maxChars: limit ? Number(limit[1]!.replace(/,/g, '')) || null : null,
    avoid: avoidedIn(user),
  };
}
