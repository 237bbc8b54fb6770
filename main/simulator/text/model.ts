import { seedFrom } from '../random.ts';
import type { TextMessage } from './messages.ts';
import { readPromptRequest } from './prompt-request.ts';
import { promptAnswer, type TextManner } from './prompt-writer.ts';
import { splitTokens } from './tokens.ts';

/** What the simulated model answers: the text, its token pieces and why it stopped. */
export interface TextReply {
  text: string;
  pieces: string[];
  finishReason: 'stop' | 'length';
}

const OPENINGS = ['Sure.', 'Here is a thought.', 'Understood.', 'Good question.', 'Noted.'];
const CLOSINGS = [
  'This reply comes from the Atelier gateway simulator.',
  'The simulator answers deterministically: same messages, same reply.',
  'A real model would say more; the simulator keeps it short.',
];
/** Words of the last user message echoed back. */
const ECHO_WORDS = 12;

function pick<T>(list: readonly T[], seed: number): T {
  return list[seed % list.length] as T;
}

/**
 * A deterministic stand-in for a language model: the same model and messages always give
 * the same reply. Asked for image or video prompts, it writes them on the theme it was given,
 * as many as asked, in the style asked, worded its own way (`manner`); otherwise it reflects
 * the last user message. `maxTokens` cuts the reply short.
 */
export function replyTo(
  model: string,
  messages: readonly TextMessage[],
  maxTokens: number | null,
  manner: TextManner = 'plain',
): TextReply {
  const request = readPromptRequest(messages);
  const full = request ? promptAnswer(request, model, manner) : echoReply(model, messages);
  const allPieces = splitTokens(full);
  if (maxTokens !== null && allPieces.length > maxTokens) {
    const pieces = allPieces.slice(0, maxTokens);
    return { text: pieces.join(''), pieces, finishReason: 'length' };
  }
  return { text: full, pieces: allPieces, finishReason: 'stop' };
}

function echoReply(model: string, messages: readonly TextMessage[]): string {
  const seed = seedFrom(model, ...messages.flatMap((m) => [m.role, m.content]));
  const lastUser = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const words = lastUser.trim().split(/\s+/).filter(Boolean);
  const echo =
    words.length === 0
      ? 'You sent no user message.'
      : `You said: "${words.slice(0, ECHO_WORDS).join(' ')}${words.length > ECHO_WORDS ? ' …' : ''}".`;
  return `${pick(OPENINGS, seed)} ${echo} ${pick(CLOSINGS, seed >>> 8)}`;
}
