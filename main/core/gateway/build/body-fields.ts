/**
 * Which optional request fields each body can carry at all (interface 2.1–2.4), whatever the
 * model. A field outside its body's list is refused before sending: silently dropping it
 * would give the person a different picture from the one they asked for.
 */
export type ImageBody = 'openai' | 'advanced' | 'qwen' | 'multipart' | 'qwen-json';

export type OptionalField =
  | 'n'
  | 'size'
  | 'seed'
  | 'quality'
  | 'output_format'
  | 'response_format'
  | 'negative_prompt'
  | 'prompt_extend'
  | 'watermark'
  | 'extra';

export const BODY_FIELDS: Record<ImageBody, readonly OptionalField[]> = {
  openai: ['n', 'size', 'quality', 'output_format', 'response_format', 'extra'],
  advanced: ['n', 'size', 'seed', 'quality', 'output_format', 'response_format', 'extra'],
  // No response_format in the Qwen bodies: the answer may be a URL or base64, both handled.
  qwen: ['n', 'size', 'seed', 'negative_prompt', 'prompt_extend', 'watermark', 'response_format'],
  multipart: ['n', 'size', 'quality', 'output_format', 'response_format'],
  'qwen-json': ['n', 'seed', 'negative_prompt', 'prompt_extend', 'watermark', 'response_format'],
};

export const BODY_NAMES: Record<ImageBody, string> = {
  openai: 'the generations endpoint (OpenAI body)',
  advanced: 'the advanced entry',
  qwen: 'the generations endpoint (Qwen-style body)',
  multipart: 'image edits (multipart form)',
  'qwen-json': 'image edits (Qwen-style JSON)',
};
