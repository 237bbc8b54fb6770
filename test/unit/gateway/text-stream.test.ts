import { describe, expect, it } from 'vitest';
import { serverEvents } from '../../../main/core/gateway/read/event-stream.ts';
import {
  StreamErrorEvent,
  textPieces,
  type TextStreamFormat,
} from '../../../main/core/gateway/read/text-stream.ts';

// The text of a streamed answer must come out the same however the bytes were cut: inside a
// `data:` line, inside a CRLF, inside a multi-byte character, between events.

const encoder = new TextEncoder();

async function textOf(chunks: Uint8Array[], format: TextStreamFormat): Promise<string> {
  async function* source() {
    for (const chunk of chunks) yield chunk;
  }
  let text = '';
  for await (const piece of textPieces(serverEvents(source()), format)) text += piece;
  return text;
}

const chat = (delta: object) => `data: ${JSON.stringify({ choices: [{ delta }] })}`;

/** A chat stream as gateways send it: role chunk, empty deltas, keep-alives, CRLF, no [DONE]. */
const CHAT_STREAM = [
  ': keep-alive\n\n',
  `${chat({ role: 'assistant', content: '' })}\n\n`,
  `${chat({})}\n\n`,
  `${chat({ content: '1. Café ' })}\r\n\r\n`,
  `${chat({ content: 'at dawn 🌅\n' })}\n\n`,
  ': ping\n\n',
  `${chat({ content: '' })}\n\n`,
  `${chat({ content: '2. 灯台' })}\n\n`,
  `data: ${JSON.stringify({ choices: [], usage: { total_tokens: 9 } })}\n\n`,
].join('');
const CHAT_TEXT = '1. Café at dawn 🌅\n2. 灯台';

const responsesEvent = (type: string, fields: object) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
const RESPONSES_STREAM = [
  responsesEvent('response.created', { response: { output: [] } }),
  ': keep-alive\n\n',
  responsesEvent('response.output_text.delta', { delta: 'Ré' }),
  responsesEvent('response.output_text.delta', { delta: '' }),
  responsesEvent('response.output_text.delta', { delta: 'sumé ✓' }),
  responsesEvent('response.output_text.done', { text: 'Résumé ✓' }),
  responsesEvent('response.completed', {
    response: { output: [{ content: [{ type: 'output_text', text: 'Résumé ✓' }] }] },
  }),
].join('');

/** Every way of cutting `bytes` in two, and in three when `triples`. */
function* cuts(bytes: Uint8Array, triples: boolean): Generator<Uint8Array[]> {
  for (let i = 1; i < bytes.length; i++) {
    yield [bytes.subarray(0, i), bytes.subarray(i)];
    if (!triples) continue;
    for (let j = i + 1; j < bytes.length; j++) {
      yield [bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)];
    }
  }
}

describe('textPieces: streamed text however the bytes are cut', () => {
  it.each([
    ['chat', CHAT_STREAM, CHAT_TEXT],
    [
      'chat with [DONE] and more after it',
      `${CHAT_STREAM}data: [DONE]\n\n${chat({ content: 'x' })}\n\n`,
      CHAT_TEXT,
    ],
    ['responses', RESPONSES_STREAM, 'Résumé ✓'],
  ] as const)('%s: every cut in two gives the same text', async (name, stream, text) => {
    const bytes = encoder.encode(stream);
    const format = name.startsWith('chat') ? 'chat' : 'responses';
    expect(await textOf([bytes], format)).toBe(text);
    for (const chunks of cuts(bytes, false)) expect(await textOf(chunks, format)).toBe(text);
    // and byte by byte
    expect(
      await textOf(
        [...bytes].map((b) => new Uint8Array([b])),
        format,
      ),
    ).toBe(text);
  });

  it('every cut in three of a short stream (inside data:, CRLF and a 4-byte character)', async () => {
    const stream = `: k\r\n\r\n${chat({ content: 'a🌅' })}\r\n\r\n${chat({})}\n\n${chat({ content: 'é' })}`;
    const bytes = encoder.encode(stream);
    let runs = 0;
    for (const chunks of cuts(bytes, true)) {
      expect(await textOf(chunks, 'chat')).toBe('a🌅é');
      runs++;
    }
    expect(runs).toBeGreaterThan(bytes.length * 10);
  });

  it('a responses stream without deltas gives the text of output_text.done, or of the final response', async () => {
    const done = responsesEvent('response.output_text.done', { text: 'whole' });
    const completed = responsesEvent('response.completed', {
      response: { output_text: 'whole' },
    });
    expect(await textOf([encoder.encode(done + completed)], 'responses')).toBe('whole');
    expect(await textOf([encoder.encode(completed)], 'responses')).toBe('whole');
  });

  it('stops reading after response.completed (a gateway that keeps the connection open)', async () => {
    let pulled = 0;
    async function* source() {
      yield encoder.encode(RESPONSES_STREAM);
      for (;;) {
        pulled++;
        if (pulled > 3) throw new Error('read past the end');
        yield encoder.encode(': keep-alive\n\n');
      }
    }
    let text = '';
    for await (const piece of textPieces(serverEvents(source()), 'responses')) text += piece;
    expect(text).toBe('Résumé ✓');
    expect(pulled).toBe(0);
  });

  it('a chat chunk carrying a whole message gives its content', async () => {
    const stream = `data: ${JSON.stringify({ choices: [{ message: { content: 'all at once' } }] })}\n\n`;
    expect(await textOf([encoder.encode(stream)], 'chat')).toBe('all at once');
  });

  it('skips malformed frames and keeps reading', async () => {
    const stream = `data: {not json\n\n${chat({ content: 'ok' })}\n\ndata: 42\n\n`;
    expect(await textOf([encoder.encode(stream)], 'chat')).toBe('ok');
  });

  it.each([
    [
      'chat error object',
      `data: {"error":{"code":"model_not_allowed","message":"no"}}\n\n`,
      'chat',
    ],
    ['event: error', `event: error\ndata: {"message":"upstream failed"}\n\n`, 'responses'],
    [
      'response.failed',
      responsesEvent('response.failed', { response: { error: { code: 'server_error' } } }),
      'responses',
    ],
  ] as const)(
    '%s throws StreamErrorEvent with the body, after the text before it',
    async (_, tail, format) => {
      const head =
        format === 'chat'
          ? `${chat({ content: 'par' })}\n\n`
          : responsesEvent('response.output_text.delta', { delta: 'par' });
      const pieces: string[] = [];
      async function* source() {
        yield encoder.encode(head + tail);
      }
      const error = await (async () => {
        for await (const piece of textPieces(serverEvents(source()), format)) pieces.push(piece);
      })().catch((e: unknown) => e);
      expect(pieces).toEqual(['par']);
      expect(error).toBeInstanceOf(StreamErrorEvent);
      expect((error as StreamErrorEvent).body).toBeTypeOf('object');
    },
  );
});
