import type { ServerEvent } from './event-stream.ts';
import { chatDelta, readChatResponse, readResponsesBody, responsesDelta } from './text-response.ts';

/** Which streamed format: chat completion chunks, or `/v1/responses` events. */
export type TextStreamFormat = 'chat' | 'responses';

/** An error the gateway sent inside the stream (its body), to be classified by the caller. */
export class StreamErrorEvent extends Error {
  readonly body: unknown;
  constructor(body: unknown) {
    super('the gateway sent an error inside the stream');
    this.name = 'StreamErrorEvent';
    this.body = body;
  }
}

const FAILED_EVENTS = new Set(['error', 'response.failed']);
/** Responses events that end the answer: nothing useful comes after them. */
const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete']);

const isBag = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parse(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The text pieces of a streamed answer, from its server-sent events. Tolerant as the interface
 * asks (4 rule 6) and as gateways behave: empty deltas, role-only and usage chunks yield
 * nothing; a malformed frame is skipped; the stream may end without `[DONE]`; a Responses
 * stream that sends no deltas gives its text from `response.output_text.done` or the final
 * response; a chat chunk carrying a whole `message` (some proxies) gives its content. An
 * error event throws StreamErrorEvent with its body. Pure: no I/O.
 */
export async function* textPieces(
  events: AsyncIterable<ServerEvent>,
  format: TextStreamFormat,
): AsyncGenerator<string, void, undefined> {
  let yielded = false;
  for await (const event of events) {
    if (event.data === '[DONE]') return;
    const data = parse(event.data);
    if (!isBag(data)) continue; // a malformed frame carries no text; keep reading
    const type = typeof data.type === 'string' ? data.type : null;
    if (
      (event.event !== null && FAILED_EVENTS.has(event.event)) ||
      (type !== null && FAILED_EVENTS.has(type)) ||
      (data.error && !data.choices)
    ) {
      throw new StreamErrorEvent(isBag(data.response) ? data.response : data);
    }
    const piece = format === 'chat' ? chatPiece(data) : responsesPiece(data, type, yielded);
    if (piece) {
      yielded = true;
      yield piece;
    }
    if (format === 'responses' && type !== null && FINAL_EVENTS.has(type)) return;
  }
}

function chatPiece(data: Record<string, unknown>): string {
  const delta = chatDelta(data);
  if (delta) return delta;
  const choice = Array.isArray(data.choices) ? (data.choices[0] as unknown) : null;
  // a chunk with `message` instead of `delta`: the whole text at once
  if (isBag(choice) && isBag(choice.message) && !isBag(choice.delta)) {
    const whole = readChatResponse({ choices: [choice] });
    return whole.ok ? whole.value.content : '';
  }
  return '';
}

function responsesPiece(data: Record<string, unknown>, type: string | null, yielded: boolean) {
  if (type === 'response.output_text.delta') return responsesDelta(data);
  if (yielded) return ''; // the deltas already gave the text: the summaries repeat it
  if (type === 'response.output_text.done' && typeof data.text === 'string') return data.text;
  if (type !== null && FINAL_EVENTS.has(type) && isBag(data.response)) {
    const whole = readResponsesBody(data.response);
    return whole.ok ? whole.value.text : '';
  }
  return '';
}
