import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../main/simulator/http.ts';
import {
  parseChatMessages,
  parseResponsesInput,
  parseTokenLimit,
} from '../../../main/simulator/text/messages.ts';
import { replyTo } from '../../../main/simulator/text/model.ts';
import {
  countPromptTokens,
  countTokens,
  splitTokens,
} from '../../../main/simulator/text/tokens.ts';

describe('splitTokens / countTokens', () => {
  it.each(['', 'one', ' two  words ', 'line\nbreak\ttab', 'trailing space '])(
    'splits %j into pieces that join back to the exact text',
    (text) => {
      expect(splitTokens(text).join('')).toBe(text);
    },
  );

  it('counts one token per word', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('a lighthouse at dusk')).toBe(4);
    expect(countTokens('  spaced   out  ')).toBe(3); // two words and the trailing whitespace
  });

  it('adds 3 framing tokens per message', () => {
    expect(countPromptTokens([{ content: 'a b' }, { content: '' }])).toBe(2 + 3 + 0 + 3);
  });
});

describe('replyTo, the deterministic text model', () => {
  const messages = [
    { role: 'system', content: 'Be kind.' },
    { role: 'user', content: 'What is a tide?' },
  ];

  it('gives the same reply for the same model and messages, reflecting the last user message', () => {
    const a = replyTo('gpt-4o-mini', messages, null);
    expect(replyTo('gpt-4o-mini', messages, null)).toEqual(a);
    expect(a.text).toContain('What is a tide?');
    expect(a.finishReason).toBe('stop');
    expect(a.pieces.join('')).toBe(a.text);
  });

  it('varies with the messages', () => {
    const texts = new Set(
      ['one', 'two', 'three', 'four', 'five'].map(
        (word) => replyTo('gpt-4o-mini', [{ role: 'user', content: word }], null).text,
      ),
    );
    expect(texts.size).toBe(5);
  });

  it('echoes at most 12 words of a long message', () => {
    const long = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    const reply = replyTo('qwen-plus', [{ role: 'user', content: long }], null);
    expect(reply.text).toContain('w11 …');
    expect(reply.text).not.toContain('w12');
  });

  it('stops at maxTokens with finish reason "length"', () => {
    const full = replyTo('gpt-4o-mini', messages, null);
    const cut = replyTo('gpt-4o-mini', messages, 4);
    expect(cut.pieces).toEqual(full.pieces.slice(0, 4));
    expect(cut.finishReason).toBe('length');
    expect(replyTo('gpt-4o-mini', messages, full.pieces.length)).toEqual(full);
  });
});

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('message validation', () => {
  it('reads string content and text parts', () => {
    expect(
      parseChatMessages([
        { role: 'user', content: 'hi' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
      ]),
    ).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'user', content: 'ab' },
    ]);
  });

  it('names the faulty field in the message', () => {
    const error = errorOf(() =>
      parseChatMessages([
        { role: 'user', content: 'ok' },
        { role: 'user', content: [{ type: 'image_url' }] },
      ]),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain('messages[1].content[0]');
    expect(errorOf(() => parseChatMessages('hi')).code).toBe('invalid_messages');
    expect(errorOf(() => parseChatMessages([{ content: 'x' }])).code).toBe('invalid_role');
  });

  it('reads Responses input as a string or message items, with instructions first', () => {
    expect(parseResponsesInput('hello', 'be brief')).toEqual([
      { role: 'developer', content: 'be brief' },
      { role: 'user', content: 'hello' },
    ]);
    expect(
      parseResponsesInput(
        [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'x' }] }],
        undefined,
      ),
    ).toEqual([{ role: 'user', content: 'x' }]);
    expect(errorOf(() => parseResponsesInput([{ type: 'function_call' }], null)).code).toBe(
      'unsupported_input_item',
    );
    expect(errorOf(() => parseResponsesInput('', null)).code).toBe('invalid_input');
  });

  it('accepts only whole positive token limits', () => {
    expect(parseTokenLimit(undefined, 'max_tokens')).toBeNull();
    expect(parseTokenLimit(5, 'max_tokens')).toBe(5);
    for (const bad of [0, -1, 1.5, '5']) {
      expect(errorOf(() => parseTokenLimit(bad, 'max_tokens')).param).toBe('max_tokens');
    }
  });
});
