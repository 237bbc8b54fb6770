import type { ChatMessage } from '../../../shared/gateway/requests.ts';

/** What is asked of the text model. */
export type PromptTask =
  | { task: 'theme'; theme: string; count: number; exclude: readonly string[] }
  | { task: 'expand'; prompt: string }
  | { task: 'vary'; prompt: string; count: number };

export type PromptStyle = 'prose' | 'tags';

/** The model the prompts are for: named when known, its kind, its prompt limit. */
export interface PromptTarget {
  model: string | null;
  kind: 'image' | 'video';
  limit: number;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The conversation that asks a text model for prompts: the rules in a system message (one
 * prompt per line and nothing else, the style, the target model's limit), the request in the
 * user's. Pure. Plain words any model follows; the answer is parsed leniently anyway.
 */
export function promptMessages(
  task: PromptTask,
  style: PromptStyle,
  target: PromptTarget,
): ChatMessage[] {
  const medium = target.kind === 'video' ? 'video' : 'image';
  const model = target.model
    ? `the ${medium} generation model ${target.model}`
    : `an ${medium} generation model`;
  const lines =
    task.task === 'expand'
      ? 'Answer with the prompt only, on one line: no title, no quotes, no commentary.'
      : 'Answer with the prompts only, one prompt per line: no numbering, no title, no blank lines, no quotes, no commentary.';
  const manner =
    style === 'tags'
      ? 'Write each prompt as a comma-separated list of short tags: the subject first, then setting, lighting, style and quality tags.'
      : `Write each prompt as one or two vivid sentences of natural prose: the subject, the setting, the light, the composition and the mood${target.kind === 'video' ? ', with the action and the camera movement' : ''}.`;
  const system = [
    `You write prompts for ${model}.`,
    lines,
    manner,
    `Keep each prompt under ${target.limit.toLocaleString('en-US')} characters.`,
  ].join(' ');
  return [
    { role: 'system', content: system },
    { role: 'user', content: request(task) },
  ];
}

function request(task: PromptTask): string {
  switch (task.task) {
    case 'theme': {
      const ask = `Write ${task.count} different prompts on this theme: ${oneLine(task.theme)}`;
      if (task.exclude.length === 0) return ask;
      const kept = task.exclude.map((prompt) => `- ${oneLine(prompt)}`).join('\n');
      return `${ask}\nThey must differ from these, already kept:\n${kept}`;
    }
    case 'expand':
      return `Expand this short prompt into one full, detailed prompt: ${oneLine(task.prompt)}`;
    case 'vary':
      return `Write ${task.count} variations of this prompt, each keeping its subject but changing the details: ${oneLine(task.prompt)}`;
  }
}
