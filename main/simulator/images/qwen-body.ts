import { badRequest } from '../http.ts';
import type { ImageModelSpec } from '../models.ts';
import {
  optionalObject,
  optionalString,
  rejectUnknownFields,
  wrongType,
  type Fields,
} from './fields.ts';

/** The Qwen-style body shared by generations and edits: {model, input: {messages}, parameters}. */
const QWEN_FIELDS = ['model', 'input', 'parameters'] as const;

/** Texts of `input.messages[].content[]`; `image` items only where `allowImages` (edits). */
export function parseQwenMessages(
  body: Fields,
  allowImages: boolean,
): { texts: string[]; images: string[] } {
  const input = optionalObject(body, 'input');
  if (input === undefined) {
    throw badRequest(
      'missing_input',
      '"input" is required: { messages: [{ role, content }] }.',
      'input',
    );
  }
  rejectUnknownFields(input, ['messages'], 'input', 'input.');
  const messages = input.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw wrongType('input.messages', 'a non-empty array of { role, content }');
  }
  const texts: string[] = [];
  const images: string[] = [];
  messages.forEach((message: unknown, m) => {
    const at = `input.messages[${m}]`;
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      throw wrongType(at, 'an object { role, content }');
    }
    const fields = message as Fields;
    rejectUnknownFields(fields, ['role', 'content'], at, `${at}.`);
    if (typeof fields.role !== 'string') throw wrongType(`${at}.role`, 'a string such as "user"');
    if (!Array.isArray(fields.content)) throw wrongType(`${at}.content`, 'an array of items');
    fields.content.forEach((item: unknown, c) => {
      const itemAt = `${at}.content[${c}]`;
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        throw wrongType(itemAt, allowImages ? 'an object {text} or {image}' : 'an object {text}');
      }
      const entry = item as Fields;
      if ('image' in entry && !allowImages) {
        throw badRequest(
          'unknown_parameter',
          `${itemAt}: image items are not accepted for generation; edit an image through /v1/images/edits.`,
          `${itemAt}.image`,
        );
      }
      const keys = Object.keys(entry);
      if (keys.length !== 1) {
        throw badRequest(
          'invalid_value',
          `${itemAt} must hold exactly one of ${allowImages ? '"text" or "image"' : '"text"'}.`,
          itemAt,
        );
      }
      const text = optionalString(entry, 'text', `${itemAt}.text`);
      const image = allowImages ? optionalString(entry, 'image', `${itemAt}.image`) : undefined;
      if (text !== undefined) texts.push(text);
      else if (image !== undefined) images.push(image);
      else throw unknownFieldOfItem(itemAt, keys[0] ?? '', allowImages);
    });
  });
  return { texts, images };
}

function unknownFieldOfItem(at: string, key: string, allowImages: boolean) {
  return badRequest(
    'unknown_parameter',
    `"${at}.${key}" is not a content item field; use ${allowImages ? '"text" or "image"' : '"text"'}.`,
    `${at}.${key}`,
  );
}

/** Refuses OpenAI-style top-level fields in a Qwen body, with the place they belong. */
export function rejectOpenAiFieldsInQwenBody(body: Fields, model: ImageModelSpec): void {
  for (const name of Object.keys(body)) {
    if ((QWEN_FIELDS as readonly string[]).includes(name)) continue;
    throw badRequest(
      'unknown_parameter',
      `Model "${model.id}" takes the Qwen-style body: "${name}" is not accepted at the top level. Put the prompt in input.messages[].content[].text and options in "parameters".`,
      name,
    );
  }
}
