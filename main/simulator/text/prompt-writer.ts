import { seedFrom } from '../random.ts';
import type { PromptRequest } from './prompt-request.ts';

/**
 * How a simulated text model words its answers, as real ones differ: `plain` does as told
 * (one prompt per line, nothing else), `chatty` opens with a sentence, numbers its list and
 * forgets the length asked, `reasoning` thinks aloud in a `<think>` block first.
 */
export type TextManner = 'plain' | 'chatty' | 'reasoning';

// Lengths are co-prime, so the first hundred combinations all differ.
const SETTINGS = [
  'on a rocky shore',
  'in a quiet village street',
  'high in the mountains',
  'at the edge of a pine forest',
  'in a crowded night market',
  'on a frozen lake',
  'beneath a vast desert sky',
  'in a flooded city',
  'inside a sunlit greenhouse',
  'along a misty river',
  'on a windswept cliff',
  'in an abandoned train station',
  'among terraced rice fields',
];
const LIGHT = [
  'at golden hour',
  'at blue hour',
  'under a full moon',
  'in soft morning fog',
  'in harsh midday sun',
  'lit by neon signs',
  'during a thunderstorm',
  'by candlelight',
  'under the northern lights',
  'in the first snow',
  'in dappled shade',
];
const FRAMING = [
  'wide-angle view',
  'close-up',
  'aerial view',
  'low-angle shot',
  'symmetrical composition',
  'shallow depth of field',
  'long exposure',
];
const STYLES = [
  'cinematic photograph',
  'watercolor painting',
  'oil painting',
  '35mm film still',
  'ink illustration',
  'isometric 3D render',
  'gouache illustration',
  'charcoal sketch',
  'matte painting',
];
const MOTION = [
  'slow dolly-in',
  'sweeping drone flyover',
  'handheld tracking shot',
  'static camera with gentle movement',
  'slow pan from left to right',
];

const pick = (list: readonly string[], i: number) => list[i % list.length]!;

/** "on a rocky shore" → "rocky shore": the phrase as a tag. */
function asTag(phrase: string): string {
  return phrase
    .replace(
      /^(?:on|in|at|by|under|during|along|beneath|inside|among|high in|at the edge of|lit by)\s+(?:a|an|the)?\s*/i,
      '',
    )
    .replace(/^the\s+/i, '');
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The i-th prompt on a subject, in the style asked. */
function promptFor(request: PromptRequest, subject: string, i: number): string {
  const parts = [pick(SETTINGS, i), pick(LIGHT, i), pick(FRAMING, i), pick(STYLES, i)];
  if (request.video) parts.splice(2, 0, pick(MOTION, i));
  if (request.style === 'tags') {
    return [subject.toLowerCase(), ...parts.map(asTag), 'highly detailed'].join(', ');
  }
  const [setting, ...rest] = parts;
  return `${capitalized(subject)} ${setting}, ${rest.join(', ')}.`;
}

/** A long prompt made of a short one: every detail the short one left out. */
function expanded(request: PromptRequest, subject: string, i: number): string {
  const details = [
    pick(SETTINGS, i),
    pick(LIGHT, i + 3),
    request.video ? pick(MOTION, i) : pick(FRAMING, i),
    'rich textures and fine detail',
    'a balanced, harmonious palette',
    pick(STYLES, i + 5),
  ];
  if (request.style === 'tags') {
    return [subject.toLowerCase(), ...details.map(asTag), 'masterpiece', 'highly detailed'].join(
      ', ',
    );
  }
  const [setting, ...rest] = details;
  return `${capitalized(subject)} ${setting}, ${rest.join(', ')}.`;
}

const key = (text: string) =>
  text
    .toLowerCase()
    .replace(/[\s.,]+/g, ' ')
    .trim();

/**
 * Shorter, as a model told "under N characters" writes: whole phrases left out (cut at the last
 * comma that fits), or at a word when not even the first phrase fits.
 */
function within(text: string, maxChars: number | null): string {
  if (maxChars === null || text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars - 1);
  const phrase = cut.lastIndexOf(',');
  const end = phrase > 0 ? phrase : cut.lastIndexOf(' ');
  return `${cut.slice(0, end).replace(/[,\s]+$/, '')}.`;
}

/**
 * The prompts asked for: different from each other and from those to avoid, within the length
 * asked unless `ignoreLength` (as chatty models do).
 */
export function writePrompts(
  request: PromptRequest,
  model: string,
  ignoreLength = false,
): string[] {
  const subject =
    request.task === 'theme' ? request.subject : request.subject.replace(/[.\s]+$/, '');
  const offset = seedFrom(model, request.subject) % 997;
  const avoid = new Set(request.avoid.map(key));
  const prompts: string[] = [];
  for (
    let i = offset;
    prompts.length < request.count && i < offset + request.count * 4 + 400;
    i++
  ) {
    const text = within(
      request.task === 'expand' ? expanded(request, subject, i) : promptFor(request, subject, i),
      ignoreLength ? null : request.maxChars,
    );
    if (avoid.has(key(text))) continue;
    avoid.add(key(text));
    prompts.push(text);
  }
  return prompts;
}

/** The whole answer, worded the model's way. */
export function promptAnswer(request: PromptRequest, model: string, manner: TextManner): string {
  const prompts = writePrompts(request, model, manner === 'chatty');
  const what =
    request.task === 'expand'
      ? 'the prompt'
      : `${prompts.length} ${request.task === 'variations' ? 'variations' : 'prompts'}`;
  switch (manner) {
    case 'plain':
      return prompts.join('\n');
    case 'chatty':
      return request.task === 'expand'
        ? `Here is the expanded prompt:\n\n"${prompts[0] ?? ''}"`
        : `Here are ${what} on "${request.subject}":\n\n${prompts.map((p, i) => `${i + 1}. ${p}`).join('\n')}`;
    case 'reasoning':
      return `<think>\nThe person wants ${what} for ${request.video ? 'a video' : 'an image'} model about ${request.subject}. I will vary the setting, the light and the style, one per line.\n</think>\n\n${prompts.join('\n')}`;
  }
}
