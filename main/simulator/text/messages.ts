import { badRequest } from '../http.ts';

/** A conversation turn reduced to what the simulated model reads. */
export interface TextMessage {
  role: string;
  content: string;
}

const CHAT_ROLES = ['system', 'developer', 'user', 'assistant', 'tool'];
const TEXT_PART_TYPES = ['text', 'input_text', 'output_text'];

/**
 * Reads message content: a string, or an array of text parts (`{type:'text', text}` in chat,
 * `input_text` / `output_text` in the Responses API). `where` names the field in errors.
 */
function readContent(value: unknown, where: string): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    return value
      .map((part: unknown, index) => {
        const item = part as { type?: unknown; text?: unknown } | null;
        if (
          typeof item !== 'object' ||
          item === null ||
          !TEXT_PART_TYPES.includes(String(item.type)) ||
          typeof item.text !== 'string'
        ) {
          throw badRequest(
            'invalid_content',
            `${where}[${index}] must be a text part such as {"type": "text", "text": "…"}; the simulator reads text only.`,
            'messages',
          );
        }
        return item.text;
      })
      .join('');
  }
  throw badRequest(
    'invalid_content',
    `${where} must be a string or an array of text parts.`,
    'messages',
  );
}

function readMessage(value: unknown, where: string, param: string): TextMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest(
      'invalid_messages',
      `${where} must be an object with "role" and "content".`,
      param,
    );
  }
  const { role, content } = value as { role?: unknown; content?: unknown };
  if (typeof role !== 'string' || !CHAT_ROLES.includes(role)) {
    throw badRequest(
      'invalid_role',
      `${where}.role must be one of ${CHAT_ROLES.join(', ')}.`,
      param,
    );
  }
  return { role, content: readContent(content, `${where}.content`) };
}

/** Validates `messages` of /v1/chat/completions: a non-empty array of {role, content}. */
export function parseChatMessages(value: unknown): TextMessage[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw badRequest(
      'invalid_messages',
      'The "messages" field is required: a non-empty array of {"role", "content"} objects.',
      'messages',
    );
  }
  return value.map((m, i) => readMessage(m, `messages[${i}]`, 'messages'));
}

/**
 * Validates `input` (and `instructions`) of /v1/responses: a string, or an array of
 * message items `{role, content}` (optionally `type: 'message'`).
 */
export function parseResponsesInput(input: unknown, instructions: unknown): TextMessage[] {
  const messages: TextMessage[] = [];
  if (instructions !== undefined && instructions !== null) {
    if (typeof instructions !== 'string') {
      throw badRequest('invalid_instructions', '"instructions" must be a string.', 'instructions');
    }
    messages.push({ role: 'developer', content: instructions });
  }
  if (typeof input === 'string' && input !== '') {
    messages.push({ role: 'user', content: input });
  } else if (Array.isArray(input) && input.length > 0) {
    input.forEach((item: unknown, i) => {
      const type = (item as { type?: unknown } | null)?.type;
      if (type !== undefined && type !== 'message') {
        throw badRequest(
          'unsupported_input_item',
          `input[${i}] has type "${String(type)}"; the simulator accepts message items only.`,
          'input',
        );
      }
      messages.push(readMessage(item, `input[${i}]`, 'input'));
    });
  } else {
    throw badRequest(
      'invalid_input',
      'The "input" field is required: a non-empty string or an array of {"role", "content"} items.',
      'input',
    );
  }
  return messages;
}

/** Reads an optional positive token limit (`max_tokens`, `max_output_tokens`…). */
export function parseTokenLimit(value: unknown, param: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw badRequest('invalid_value', `"${param}" must be a whole number of at least 1.`, param);
  }
  return value;
}

/** Reads the optional `stream` flag. */
export function parseStreamFlag(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') {
    throw badRequest('invalid_value', '"stream" must be true or false.', 'stream');
  }
  return value;
}
