import type { TextUsage } from './billing.ts';
import type { TextReply } from './model.ts';
import { SSE_KEEP_ALIVE, sseEvent, STREAM_ERROR } from './sse.ts';

/** What the response object and the events of one /v1/responses call share. */
export interface ResponsesCall {
  id: string;
  messageId: string;
  createdAt: number;
  model: string;
  instructions: string | null;
  maxOutputTokens: number | null;
  reply: TextReply;
  usage: TextUsage;
}

function outputText(text: string) {
  return { type: 'output_text', text, annotations: [], logprobs: [] };
}

function message(call: ResponsesCall, status: 'in_progress' | 'completed', content: object[]) {
  return { id: call.messageId, type: 'message', status, role: 'assistant', content };
}

/** The Responses API object; `final` false gives the in-progress snapshot of stream events. */
export function responseBody(call: ResponsesCall, final = true) {
  const truncated = call.reply.finishReason === 'length';
  return {
    id: call.id,
    object: 'response',
    created_at: call.createdAt,
    status: !final ? 'in_progress' : truncated ? 'incomplete' : 'completed',
    error: null,
    incomplete_details: final && truncated ? { reason: 'max_output_tokens' } : null,
    instructions: call.instructions,
    max_output_tokens: call.maxOutputTokens,
    model: call.model,
    output: final ? [message(call, 'completed', [outputText(call.reply.text)])] : [],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: final
      ? {
          input_tokens: call.usage.promptTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: call.usage.completionTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: call.usage.totalTokens,
        }
      : null,
    metadata: {},
  };
}

/**
 * The SSE events of a streamed response, in the order the OpenAI client accumulates them:
 * created, in_progress, item and part added, one text delta per token, text done, part and
 * item done, then completed (or incomplete when max_output_tokens cut the reply).
 */
export function responseStreamFrames(call: ResponsesCall): string[] {
  let sequence = 0;
  const event = (type: string, fields: object) =>
    sseEvent(type, { type, sequence_number: sequence++, ...fields });
  const at = { item_id: call.messageId, output_index: 0, content_index: 0 };
  const { text, pieces } = call.reply;
  const final = responseBody(call);

  const frames = [
    event('response.created', { response: responseBody(call, false) }),
    event('response.in_progress', { response: responseBody(call, false) }),
    SSE_KEEP_ALIVE,
    event('response.output_item.added', {
      output_index: 0,
      item: message(call, 'in_progress', []),
    }),
    event('response.content_part.added', { ...at, part: outputText('') }),
  ];
  for (const delta of pieces) {
    frames.push(event('response.output_text.delta', { ...at, delta, logprobs: [] }));
  }
  frames.push(
    event('response.output_text.done', { ...at, text, logprobs: [] }),
    event('response.content_part.done', { ...at, part: outputText(text) }),
    event('response.output_item.done', {
      output_index: 0,
      item: message(call, 'completed', [outputText(text)]),
    }),
    SSE_KEEP_ALIVE,
    event(final.status === 'completed' ? 'response.completed' : 'response.incomplete', {
      response: final,
    }),
  );
  return frames;
}

/** The `error` event a Responses stream breaks off with. */
export function responseStreamError(): string {
  return sseEvent('error', { type: 'error', ...STREAM_ERROR, param: null });
}
